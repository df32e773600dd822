/**
 * A progress bar on stderr, redrawn in place; only on a terminal (a pipe or a file gets nothing, so
 * scripts read clean output).
 */
export const makeProgress = (stream: NodeJS.WriteStream = process.stderr) => {
  const live = stream.isTTY === true
  let drawn = false
  return {
    update: (done: number, total: number, detail: string) => {
      if (!live) return
      const width = 30
      const filled = total === 0 ? width : Math.round((done / total) * width)
      const bar = "█".repeat(filled) + "░".repeat(width - filled)
      stream.write(`\r${bar} ${done}/${total} ${detail}\x1b[K`)
      drawn = true
    },
    end: () => {
      if (live && drawn) stream.write("\n")
      drawn = false
    }
  }
}
