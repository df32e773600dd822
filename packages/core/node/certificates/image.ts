import { Resvg } from "@resvg/resvg-js"
import satori from "satori"
import { type CertificateContent, hexOf, inkFor } from "../../src/certificates/render/content"
import { imageSize, type ImageVariant } from "../../src/certificates/render/variants"
import { loadFont } from "./fontFiles"
import { qrSvg } from "./qr"

type Node = { type: string; props: Record<string, unknown> }
const h = (type: string, style: Record<string, unknown>, ...children: Array<Node | string>): Node => ({
  type,
  props: { style, children }
})
const img = (src: string, width: number, height: number, style: Record<string, unknown> = {}): Node => ({
  type: "img",
  props: { src, width, height, style: { objectFit: "contain", ...style } }
})

const dataUrl = (bytes: Uint8Array, type: string) => `data:${type};base64,${Buffer.from(bytes).toString("base64")}`

/**
 * The certificate as a PNG, laid out with satori (HTML/CSS subset to SVG) in the template's font and
 * rasterised with resvg: `card` is the 1200×630 image for social networks, `page` the whole
 * certificate. Both carry the QR code of the verification URL.
 */
export const renderPng = async (content: CertificateContent, variant: ImageVariant): Promise<Uint8Array> => {
  const { bold, font, regular } = await loadFont(content.fontId)
  const [width, height] = imageSize(content, variant)
  const ink = hexOf(inkFor(content.background))
  const unit = Math.min(width, height) / 100
  const qr = dataUrl(new TextEncoder().encode(qrSvg(content.verifyUrl, "#000000", "#ffffff")), "image/svg+xml")
  const card = variant === "card"
  const frame = Math.max(2, Math.round(unit * 0.4))
  const body = card ? content.body.slice(0, 220) + (content.body.length > 220 ? "…" : "") : content.body
  const tree = h(
    "div",
    { width, height, display: "flex", backgroundColor: content.background, color: ink },
    h(
      "div",
      {
        display: "flex",
        position: "absolute",
        top: unit * 2.5,
        left: unit * 2.5,
        // content box: the frame's padding and border are outside these
        width: width - unit * 5 - unit * 6 - frame * 2,
        height: height - unit * 5 - unit * 6 - frame * 2,
        flexDirection: "column",
        alignItems: "center",
        justifyContent: "space-between",
        fontFamily: font.name,
        padding: unit * 3,
        border: `${frame}px solid ${ink}`
      },
      h(
        "div",
        { display: "flex", flexDirection: "column", alignItems: "center", width: "100%" },
        ...(content.logo ? [img(dataUrl(content.logo.bytes, content.logo.type), unit * 20, unit * 10)] : []),
        h("div", { fontSize: unit * 7, fontWeight: 700, textAlign: "center", marginTop: unit * 2 }, content.title),
        h(
          "div",
          { fontSize: unit * 8, fontWeight: 700, textAlign: "center", marginTop: unit * 3 },
          content.recipientName
        ),
        h("div", { fontSize: unit * 3.2, textAlign: "center", marginTop: unit * 3, maxWidth: "85%" }, body)
      ),
      h(
        "div",
        {
          display: "flex",
          flexDirection: "row",
          justifyContent: "space-between",
          alignItems: "flex-end",
          width: "100%"
        },
        h(
          "div",
          { display: "flex", flexDirection: "column", alignItems: "flex-start" },
          img(qr, unit * (card ? 16 : 18), unit * (card ? 16 : 18)),
          h("div", { fontSize: unit * 2.4, marginTop: unit }, content.code)
        ),
        h(
          "div",
          { display: "flex", flexDirection: "column", alignItems: "flex-end" },
          ...(content.signature
            ? [img(dataUrl(content.signature.bytes, content.signature.type), unit * 22, unit * 9)]
            : []),
          h("div", { fontSize: unit * 2.8 }, `${content.spaceTitle} · ${content.date}`),
          h("div", { fontSize: unit * 2 }, content.verifyUrl)
        )
      )
    )
  )
  const svg = await satori(tree as never, {
    width,
    height,
    fonts: [
      { name: font.name, data: Buffer.from(regular), weight: 400, style: "normal" },
      { name: font.name, data: Buffer.from(bold), weight: 700, style: "normal" }
    ]
  })
  const png = new Resvg(svg, { fitTo: { mode: "width", value: width }, font: { loadSystemFonts: false } })
    .render()
    .asPng()
  return new Uint8Array(png)
}
