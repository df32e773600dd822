import fontkit from "@pdf-lib/fontkit"
import { degrees, PDFDocument, type PDFFont, type PDFPage, rgb } from "pdf-lib"
import { type CertificateContent, inkFor, pagePoints, rgbOf } from "../../src/certificates/render/content"
import { loadFont } from "./fontFiles"
import { qrMatrix } from "./qr"

/**
 * fontkit parses a font on every `embedFont`; the fonts are the same few byte arrays for every
 * certificate (see `loadFont`), so each is parsed once per process. A parsed font is only read
 * (layout, subsets), never changed.
 */
const parsedFonts = new WeakMap<Uint8Array, ReturnType<typeof fontkit.create>>()
const cachingFontkit: typeof fontkit = {
  ...fontkit,
  create: (bytes: Uint8Array, postscriptName?: string) => {
    let font = parsedFonts.get(bytes)
    if (font === undefined) {
      font = fontkit.create(bytes, postscriptName)
      parsedFonts.set(bytes, font)
    }
    return font
  }
}

/** Lines of `text` no wider than `width` at `size` (words kept whole; paragraphs kept). */
const wrap = (text: string, font: PDFFont, size: number, width: number) => {
  const lines: Array<string> = []
  for (const paragraph of text.split(/\r?\n/)) {
    let line = ""
    for (const word of paragraph.split(/\s+/).filter((w) => w !== "")) {
      const candidate = line === "" ? word : `${line} ${word}`
      if (line !== "" && font.widthOfTextAtSize(candidate, size) > width) {
        lines.push(line)
        line = word
      } else {
        line = candidate
      }
    }
    lines.push(line)
  }
  return lines
}

/** Shrinks `size` until `text` fits on one line of `width`. */
const fit = (text: string, font: PDFFont, size: number, width: number) => {
  let current = size
  while (current > 8 && font.widthOfTextAtSize(text, current) > width) current -= 1
  return current
}

const centered = (
  page: PDFPage,
  text: string,
  options: { font: PDFFont; size: number; y: number; color: ReturnType<typeof rgb> }
) => {
  const width = options.font.widthOfTextAtSize(text, options.size)
  page.drawText(text, {
    x: (page.getWidth() - width) / 2,
    y: options.y,
    size: options.size,
    font: options.font,
    color: options.color
  })
}

/**
 * The certificate as a PDF: A4 or Letter in the template's orientation, the template's font embedded
 * (subset), every text as vector text, the QR code of the verification URL drawn as vector squares.
 */
export const renderPdf = async (content: CertificateContent, issuedAt: Date): Promise<Uint8Array> => {
  const { bold, regular } = await loadFont(content.fontId)
  const doc = await PDFDocument.create()
  doc.registerFontkit(cachingFontkit)
  const regularFont = await doc.embedFont(regular, { subset: true })
  const boldFont = bold === regular ? regularFont : await doc.embedFont(bold, { subset: true })
  doc.setTitle(`${content.title} — ${content.recipientName}`)
  doc.setAuthor(content.spaceTitle)
  doc.setSubject(`Verification code ${content.code}: ${content.verifyUrl}`)
  doc.setCreator("Roda")
  doc.setProducer("Roda (pdf-lib)")
  doc.setCreationDate(issuedAt)
  doc.setModificationDate(issuedAt)

  const [width, height] = pagePoints(content.pageSize, content.orientation)
  const page = doc.addPage([width, height])
  const [br, bg, bb] = rgbOf(content.background)
  const background = rgb(br, bg, bb)
  const [ir, ig, ib] = inkFor(content.background)
  const ink = rgb(ir, ig, ib)
  page.drawRectangle({ x: 0, y: 0, width, height, color: background })
  const margin = Math.min(width, height) * 0.06
  page.drawRectangle({
    x: margin / 2,
    y: margin / 2,
    width: width - margin,
    height: height - margin,
    borderColor: ink,
    borderWidth: 1.5,
    opacity: 0
  })

  if (content.logo) {
    const image = content.logo.type === "image/png"
      ? await doc.embedPng(content.logo.bytes)
      : await doc.embedJpg(content.logo.bytes)
    const scaled = image.scaleToFit(width * 0.18, height * 0.12)
    page.drawImage(image, { x: (width - scaled.width) / 2, y: height - margin - scaled.height, ...scaled })
  }

  const textWidth = width - margin * 4
  let y = height * 0.72
  const titleSize = fit(content.title, boldFont, 36, textWidth)
  centered(page, content.title, { font: boldFont, size: titleSize, y, color: ink })
  y -= height * 0.12
  const nameSize = fit(content.recipientName, boldFont, 30, textWidth)
  centered(page, content.recipientName, { font: boldFont, size: nameSize, y, color: ink })
  y -= height * 0.08
  for (const line of wrap(content.body, regularFont, 14, textWidth).slice(0, 12)) {
    centered(page, line, { font: regularFont, size: 14, y, color: ink })
    y -= 20
  }

  // QR code of the verification URL, bottom left, with the code beneath it.
  const qr = qrMatrix(content.verifyUrl)
  const qrSide = Math.min(width, height) * 0.16
  const cell = qrSide / qr.size
  const qrX = margin
  const qrY = margin + 18
  page.drawRectangle({
    x: qrX - cell * 2,
    y: qrY - cell * 2,
    width: qrSide + cell * 4,
    height: qrSide + cell * 4,
    color: rgb(1, 1, 1)
  })
  // One path of unit squares (one PDF operator), scaled: far cheaper than a rectangle per module.
  let modules = ""
  for (let row = 0; row < qr.size; row++) {
    for (let column = 0; column < qr.size; column++) {
      if (qr.dark(row, column)) modules += `M${column} ${row}h1v1h-1z`
    }
  }
  page.drawSvgPath(modules, { x: qrX, y: qrY + qrSide, scale: cell, color: rgb(0, 0, 0) })
  page.drawText(content.code, { x: qrX, y: margin, size: 9, font: regularFont, color: ink })

  // Date and place, bottom right; the signature above them.
  const right = width - margin
  if (content.signature) {
    const image = content.signature.type === "image/png"
      ? await doc.embedPng(content.signature.bytes)
      : await doc.embedJpg(content.signature.bytes)
    const scaled = image.scaleToFit(width * 0.2, height * 0.1)
    page.drawImage(image, { x: right - scaled.width, y: margin + 40, ...scaled })
  }
  const dateLine = `${content.spaceTitle} · ${content.date}`
  const dateSize = fit(dateLine, regularFont, 11, width * 0.45)
  page.drawText(dateLine, {
    x: right - regularFont.widthOfTextAtSize(dateLine, dateSize),
    y: margin + 18,
    size: dateSize,
    font: regularFont,
    color: ink
  })
  const verify = content.verifyUrl
  const verifySize = fit(verify, regularFont, 8, width * 0.45)
  page.drawText(verify, {
    x: right - regularFont.widthOfTextAtSize(verify, verifySize),
    y: margin,
    size: verifySize,
    font: regularFont,
    color: ink
  })

  if (content.watermark) {
    page.drawText(content.watermark, {
      x: width * 0.2,
      y: height * 0.25,
      size: Math.min(width, height) * 0.18,
      font: boldFont,
      color: rgb(0.8, 0.1, 0.1),
      opacity: 0.15,
      rotate: degrees(25)
    })
  }
  return doc.save({ useObjectStreams: false })
}
