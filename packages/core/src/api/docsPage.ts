import { HttpApiScalar } from "@effect/platform"

/**
 * The docs page (`/api/docs`): Scalar's API reference with a sidebar, search (also `/` or ⌘K) and deep
 * links (`#tag/…`, `#tag/…/…` per operation). Scalar's script is inlined in the page by
 * `HttpApiScalar.layer`, and its default fonts (fetched from a CDN) are off, so the page works offline.
 */
export const docsPage = HttpApiScalar.layer({
  path: "/api/docs",
  scalar: {
    layout: "modern",
    showSidebar: true,
    hideSearch: false,
    hideModels: false,
    withDefaultFonts: false,
    defaultOpenAllTags: false
  }
})
