import { newCommunity } from "./community"
import { expectOk } from "./envelope"
import { type Client, PASSWORD, PLATFORM_ADMIN } from "./harness"
import { outboxFor, passwordLinkFor, waitForMail } from "./outbox"

/** Valid Brazilian tax ids (check digits right). */
export const VALID_CNPJ = "11.222.333/0001-81"
export const VALID_CPF = "529.982.247-25"

/**
 * The platform operator's token (PLATFORM_ADMIN of the harness); registered on first use, and its
 * e-mail verified for real (operator rights need a verified address): a recovery link is requested
 * and used to set the same password. Safe when several Rodas of a file share its database: whoever
 * verifies first wins, and a link closed by another's is simply retried.
 */
export const platformAdmin = async (api: Client): Promise<string> => {
  const signIn = async () => {
    const login = await api.post("/api/auth/login", { email: PLATFORM_ADMIN, password: PASSWORD })
    if (login.status === 200) return login.body.data.token as string
    const registered = await api.post("/api/auth/register", {
      fullName: "Platform Operator",
      email: PLATFORM_ADMIN,
      password: PASSWORD
    })
    if (registered.status === 201) return registered.body.data.token as string
    // registered concurrently by another Roda of the file
    return expectOk(await api.post("/api/auth/login", { email: PLATFORM_ADMIN, password: PASSWORD })).token as string
  }
  const token = await signIn()
  for (let attempt = 0; attempt < 20; attempt++) {
    const me = expectOk(await api.get("/api/auth/me", { token }))
    if (me.isPlatformAdmin === true) return token
    const before = (await outboxFor(api.roda, PLATFORM_ADMIN)).filter((m) => m.kind === "password-recovery").length
    expectOk(await api.post("/api/auth/recovery-password", { email: PLATFORM_ADMIN }))
    // the recovery e-mail is written just after the answer
    await waitForMail(api.roda, PLATFORM_ADMIN, "password-recovery", before + 1)
    const link = await passwordLinkFor(api.roda, PLATFORM_ADMIN, "password-recovery")
    await api.post("/api/auth/set-password", { id: link.id, token: link.token, password: PASSWORD })
  }
  throw new Error("the platform operator's e-mail could not be verified")
}

interface Owner {
  readonly token: string
}
interface Community {
  readonly id: string
}

export const businessInformation = (country = "BR") => ({
  country,
  legalName: "Roda Cursos Ltda",
  taxId: country === "BR" ? VALID_CNPJ : "US-12-3456789",
  address: {
    street: "Rua Augusta",
    number: "100",
    city: "São Paulo",
    state: "SP",
    postalCode: "01304-000",
    country
  },
  email: "financeiro@roda.test",
  phone: "+55 11 99999-0000"
})

/** Business information filled in, submitted and approved by the platform operator. */
export const approveBusiness = async (api: Client, owner: Owner, community: Community, country = "BR") => {
  const scoped = { token: owner.token, community: community.id }
  expectOk(await api.post("/api/business-information", businessInformation(country), scoped))
  expectOk(await api.post("/api/business-information/submit", {}, scoped))
  const admin = await platformAdmin(api)
  expectOk(
    await api.post(`/api/admin/communities/${community.id}/business-information/approve`, {}, { token: admin })
  )
}

/** Payout settings (a PIX key) filled in, submitted and approved by the platform operator. */
export const approvePayouts = async (api: Client, owner: Owner, community: Community) => {
  const scoped = { token: owner.token, community: community.id }
  expectOk(await api.post("/api/payout-settings", { method: "PIX", pixKey: "financeiro@roda.test" }, scoped))
  expectOk(await api.post("/api/payout-settings/submit", {}, scoped))
  const admin = await platformAdmin(api)
  expectOk(await api.post(`/api/admin/communities/${community.id}/payout-settings/approve`, {}, { token: admin }))
}

/** A community that may sell: approved business information (BR) and approved payout settings. */
export const sellingCommunity = async (api: Client, label = "Loja") => {
  const made = await newCommunity(api, label)
  await approveBusiness(api, made.owner, made.community)
  await approvePayouts(api, made.owner, made.community)
  return made
}

/** A product created and published (ACTIVE); `fields` override the defaults (a ONE_TIME of R$ 100,00). */
export const activeProduct = async (
  api: Client,
  owner: Owner,
  community: Community,
  fields: Record<string, unknown> = {}
): Promise<{ id: string } & Record<string, any>> => {
  const scoped = { token: owner.token, community: community.id }
  const created = await api.post("/api/products", {
    type: "ONE_TIME",
    title: "Ingresso",
    price: 10000,
    allowedPaymentMethods: ["CREDIT_CARD", "PIX", "BOLETO"],
    ...fields
  }, scoped)
  const { id } = expectOk(created, 201)
  return expectOk(await api.post(`/api/products/${id}/publish`, {}, scoped))
}

/** A SUBSCRIPTION product, published; `fields` override the defaults (R$ 49,90 a month). */
export const activePlanOption = (
  api: Client,
  owner: Owner,
  community: Community,
  fields: Record<string, unknown> = {}
) =>
  activeProduct(api, owner, community, {
    type: "SUBSCRIPTION",
    title: "Mensal",
    price: 4990,
    billingInterval: "MONTHLY",
    ...fields
  })
