import { escapeHtml } from "../domain/Html"
import type { Language } from "../domain/Text"

const words = {
  pt: {
    title: "Conectar assistente",
    signIn: "Entre para continuar",
    email: "E-mail",
    password: "Senha",
    enter: "Entrar",
    asks: "quer acessar sua comunidade como você",
    redirect: "Depois, você volta para",
    scopes: "Permissões",
    read: "ler (ferramentas que não mudam nada)",
    write: "escrever (todas as ferramentas)",
    community: "Escolha a comunidade",
    allow: "Permitir",
    deny: "Negar",
    noCommunity: "Sua conta não participa de nenhuma comunidade.",
    refused: "Pedido de autorização recusado",
    noScript: "Esta página precisa de JavaScript para entrar e responder ao pedido."
  },
  en: {
    title: "Connect an assistant",
    signIn: "Sign in to continue",
    email: "E-mail",
    password: "Password",
    enter: "Sign in",
    asks: "wants to access your community as you",
    redirect: "Afterwards you go back to",
    scopes: "Permissions",
    read: "read (tools that change nothing)",
    write: "write (every tool)",
    community: "Choose the community",
    allow: "Allow",
    deny: "Deny",
    noCommunity: "Your account is not in any community.",
    refused: "Authorization request refused",
    noScript: "This page needs JavaScript to sign in and answer the request."
  }
}

/** Security headers of both pages: no framing (clickjacking), scripts only with the page's nonce. */
export const pageHeaders = (nonce: string) => ({
  "content-security-policy":
    `default-src 'none'; script-src 'nonce-${nonce}'; style-src 'nonce-${nonce}'; connect-src 'self'; ` +
    `form-action 'none'; frame-ancestors 'none'; base-uri 'none'`,
  "x-frame-options": "DENY",
  "referrer-policy": "no-referrer",
  "cache-control": "no-store"
})

const STYLE = `body{font-family:system-ui,sans-serif;max-width:28rem;margin:3rem auto;padding:0 1rem;color:#222}
section{display:none}section.on{display:block}label{display:block;margin:.6rem 0}input[type=email],
input[type=password]{width:100%;padding:.4rem}button{padding:.5rem 1rem;margin-right:.5rem}#error{color:#b00020}`

/** The 400 page of `/oauth/authorize` when the client or its redirect URI is not known (never a redirect). */
export const refusalPage = (description: string, language: Language, nonce: string) => {
  const w = words[language]
  return `<!doctype html><html lang="${language}"><head><meta charset="utf-8"><title>${w.refused}</title>
<style nonce="${nonce}">${STYLE}</style></head><body><h1>${w.refused}</h1><p id="error">${
    escapeHtml(description)
  }</p></body></html>`
}

/**
 * The consent page: sign in (`POST /api/auth/login`), the request (`GET /api/oauth/authorize/info`),
 * a community, then Allow or Deny (`POST /api/oauth/authorize/consent|deny`), whose answer names the
 * redirect. Everything shown is set as text, never as HTML.
 */
export const consentPage = (language: Language, nonce: string) => {
  const w = words[language]
  return `<!doctype html><html lang="${language}"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1"><title>${w.title}</title>
<style nonce="${nonce}">${STYLE}</style></head><body><h1>${w.title}</h1>
<p id="error" role="alert"></p><noscript><p>${w.noScript}</p></noscript>
<section id="signin"><h2>${w.signIn}</h2><form id="signin-form">
<label>${w.email} <input id="email" type="email" autocomplete="username" required></label>
<label>${w.password} <input id="password" type="password" autocomplete="current-password" required></label>
<button id="signin-submit" type="submit">${w.enter}</button></form></section>
<section id="consent"><p><strong id="client-name"></strong> <span id="client-uri"></span> ${w.asks}.</p>
<p>${w.redirect} <code id="redirect-host"></code>.</p>
<p>${w.scopes}:</p><ul id="scopes"></ul>
<form id="consent-form"><fieldset><legend>${w.community}</legend><div id="communities"></div></fieldset>
<p id="no-community" hidden>${w.noCommunity}</p>
<button id="allow" type="submit">${w.allow}</button><button id="deny" type="button">${w.deny}</button></form></section>
<script nonce="${nonce}">
(() => {
  const scopeText = { read: ${JSON.stringify(w.read)}, write: ${JSON.stringify(w.write)} }
  const requestId = new URLSearchParams(location.search).get("request_id") || ""
  const KEY = "roda.oauth.token"
  let token = sessionStorage.getItem(KEY)
  const $ = (id) => document.getElementById(id)
  const show = (id) => { for (const s of document.querySelectorAll("section")) s.classList.toggle("on", s.id === id) }
  const fail = (message) => { $("error").textContent = message || "Error" }
  const clearError = () => { $("error").textContent = "" }
  const call = async (method, path, body) => {
    const headers = { "content-type": "application/json" }
    if (token) headers.authorization = "Bearer " + token
    const response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) })
    return { status: response.status, body: await response.json().catch(() => ({})) }
  }
  const go = (answer) => { if (answer.status === 200) location.assign(answer.body.data.redirectTo); else fail(answer.body.message) }
  const load = async () => {
    if (!token) return show("signin")
    const answer = await call("GET", "/api/oauth/authorize/info?request_id=" + encodeURIComponent(requestId))
    if (answer.status === 401) { token = null; sessionStorage.removeItem(KEY); return show("signin") }
    if (answer.status !== 200) { show(""); return fail(answer.body.message) }
    const data = answer.body.data
    $("client-name").textContent = data.client.name || data.client.id
    $("client-uri").textContent = data.client.uri ? "(" + data.client.uri + ")" : ""
    $("redirect-host").textContent = (() => { try { return new URL(data.redirectUri).host || data.redirectUri } catch { return data.redirectUri } })()
    $("scopes").replaceChildren(...data.scopes.map((s) => Object.assign(document.createElement("li"), { textContent: scopeText[s] || s })))
    $("communities").replaceChildren(...data.communities.map((c, i) => {
      const label = document.createElement("label")
      const input = Object.assign(document.createElement("input"), { type: "radio", name: "community", value: c.id, checked: i === 0 })
      label.append(input, " " + c.name + " (" + c.role + ")")
      return label
    }))
    $("no-community").hidden = data.communities.length > 0
    $("allow").disabled = data.communities.length === 0
    clearError()
    show("consent")
  }
  $("signin-form").addEventListener("submit", async (event) => {
    event.preventDefault()
    const answer = await call("POST", "/api/auth/login", { email: $("email").value, password: $("password").value })
    if (answer.status !== 200) return fail(answer.body.message)
    token = answer.body.data.token
    sessionStorage.setItem(KEY, token)
    await load()
  })
  $("consent-form").addEventListener("submit", async (event) => {
    event.preventDefault()
    const chosen = document.querySelector("input[name=community]:checked")
    if (!chosen) return
    go(await call("POST", "/api/oauth/authorize/consent", { requestId, communityId: chosen.value }))
  })
  $("deny").addEventListener("click", async () => go(await call("POST", "/api/oauth/authorize/deny", { requestId })))
  load().catch((error) => fail(String(error)))
})()
</script></body></html>`
}
