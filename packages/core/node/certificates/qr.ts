import QRCode from "qrcode"

/** The QR code of a URL as a matrix of dark modules. */
export const qrMatrix = (url: string) => {
  const qr = QRCode.create(url, { errorCorrectionLevel: "M" })
  const size = qr.modules.size
  const dark = (row: number, column: number) => qr.modules.get(row, column) === 1
  return { size, dark }
}

/** The QR code of a URL as an SVG document (for the image renderer). */
export const qrSvg = (url: string, ink: string, background: string) => {
  const { size, dark } = qrMatrix(url)
  const quiet = 2
  let path = ""
  for (let row = 0; row < size; row++) {
    for (let column = 0; column < size; column++) {
      if (dark(row, column)) path += `M${column + quiet} ${row + quiet}h1v1h-1z`
    }
  }
  const total = size + quiet * 2
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${total} ${total}" shape-rendering="crispEdges">` +
    `<rect width="${total}" height="${total}" fill="${background}"/><path d="${path}" fill="${ink}"/></svg>`
}
