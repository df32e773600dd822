// A process that tries to take DATA_DIR's lock at a given instant (argv: folder, epoch ms), prints
// `won` (and holds the lock until its stdin closes, then exits, which releases it) or the refusal.
import { lockDataDir } from "../../node/dataDirLock"

const [folder, at] = process.argv.slice(2)
while (Date.now() < Number(at)) {
  // all contenders start together
}
try {
  lockDataDir(folder!)
  process.stdout.write("won\n")
  process.stdin.resume()
  process.stdin.once("end", () => process.exit(0))
} catch (error) {
  process.stdout.write(`${(error as Error).message}\n`)
}
