import { createRequire } from "node:module"
import { inflateSync } from "node:zlib"

// The QR encoder the certificates use, from @roda/core's dependencies (the suite's reference).
const QRCode = createRequire(new URL("../../../core/package.json", import.meta.url))("qrcode") as {
  create: (text: string, options: { errorCorrectionLevel: string }) => {
    modules: { size: number; get: (row: number, column: number) => number }
  }
}

/** The dark modules of the QR code of `url` (error correction M, as the certificates draw it), as "column,row". */
export const qrModulesOfUrl = (url: string) => {
  const { modules } = QRCode.create(url, { errorCorrectionLevel: "M" })
  const dark: Array<string> = []
  for (let row = 0; row < modules.size; row++) {
    for (let column = 0; column < modules.size; column++) {
      if (modules.get(row, column) === 1) dark.push(`${column},${row}`)
    }
  }
  return dark.sort()
}

/**
 * The text of a PDF's streams, each read by its dictionary's `/Length` (its bytes may hold anything,
 * line ends included) and inflated where it is compressed.
 */
const contentOf = (pdf: Buffer) => {
  const text = pdf.toString("latin1")
  return [...text.matchAll(/\/Length (\d+)(?=[\s/>])[^>]*>>\s*stream\r?\n/g)].map((match) => {
    const start = match.index + match[0].length
    const bytes = pdf.subarray(start, start + Number(match[1]))
    try {
      return inflateSync(bytes).toString("latin1")
    } catch {
      return bytes.toString("latin1")
    }
  }).join("\n")
}

/**
 * The unit squares of the PDF's QR code as "column,row": the certificate draws it as one path of
 * squares in module units (`column row m`, scaled by the `cm` before it), the graphics state
 * (`q` … `Q`) with by far the most moves.
 */
export const qrModulesOfPdf = (pdf: Buffer) => {
  const moves = contentOf(pdf).split(/\sQ\s/).map((block) =>
    [...block.matchAll(/(?:^|\s)(\d+) (\d+) m(?=\s)/g)].map(([, column, row]) => `${column},${row}`)
  )
  return moves.reduce((most, block) => (block.length > most.length ? block : most), []).sort()
}
