import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { as } from "../support/community"
import { expectCreated, expectInvalid, expectOk, unknownId } from "../support/envelope"
import { client, startRoda } from "../support/harness"
import { createSection, entitle } from "../support/structure"
import { type CatalogueCommunity, catalogueCommunity, createPlan, draftOption, draftProduct } from "./catalogue-support"

const roda = startRoda()
const api = client(roda)
afterAll(() => roda.dispose())

const unknownGrant = (id: string) => `The access grant ${id} does not exist in this community.`

let setup: CatalogueCommunity
let other: CatalogueCommunity
let sectionId: string
let plan: { id: string }
let product: { id: string }
beforeAll(async () => {
  setup = await catalogueCommunity(api, "Acesso pago")
  other = await catalogueCommunity(api, "Outra")
  sectionId = (await createSection(api, setup)).id
  plan = await createPlan(api, setup, [(await draftOption(api, setup)).id])
  product = await draftProduct(api, setup)
})
const newSpace = (access: unknown, title = "Pago") =>
  api.post("/api/spaces", { sectionId, title, module: "courses", access }, setup.asOwner())

describe("space access grants against the catalogue", () => {
  it("accepts the community's plans and products, on create and on update", async () => {
    const space = expectCreated(
      await newSpace({ subscriptionGroupIds: [plan.id], productIds: [product.id.toUpperCase()] })
    )
    expect(space.access).toEqual({ subscriptionGroupIds: [plan.id], productIds: [product.id] })
    const second = await draftOption(api, setup)
    const updated = expectOk(
      await api.put(`/api/spaces/${space.id}`, { access: { productIds: [product.id, second.id] } }, setup.asOwner())
    )
    expect(updated.access.productIds).toEqual([product.id, second.id])
  })

  it("refuses unknown, foreign, removed and wrong-kind grants with the spec message (param access)", async () => {
    const foreignPlan = await createPlan(api, other, [(await draftOption(api, other)).id])
    const foreignProduct = await draftProduct(api, other)
    const removed = await draftProduct(api, setup)
    expectOk(await api.del(`/api/products/${removed.id}`, setup.asOwner()))
    const missing = unknownId()
    const cases: ReadonlyArray<[unknown, string]> = [
      [{ subscriptionGroupIds: [missing] }, missing],
      [{ productIds: [missing] }, missing],
      [{ subscriptionGroupIds: [foreignPlan.id] }, foreignPlan.id],
      [{ productIds: [foreignProduct.id] }, foreignProduct.id],
      [{ productIds: [removed.id] }, removed.id],
      // a plan is not a product, nor the other way round
      [{ productIds: [plan.id] }, plan.id],
      [{ subscriptionGroupIds: [product.id] }, product.id],
      // the first unknown one is named: plans before products
      [{ subscriptionGroupIds: [plan.id, missing], productIds: [product.id] }, missing]
    ]
    for (const [access, named] of cases) {
      expect(expectInvalid(await newSpace(access), "access").message).toBe(unknownGrant(named))
    }
  })

  it("opens a gated space to a member entitled by the plan", async () => {
    const space = expectCreated(await newSpace({ subscriptionGroupIds: [plan.id] }, "Curso pago"))
    const member = await setup.addMember("member")
    const read = async () => expectOk(await api.get(`/api/spaces/${space.id}`, as(member, setup.community)))
    expect((await read()).canReadContent).toBe(false)
    await entitle(roda, setup.community.id, member.profileId, { type: "plan", id: plan.id })
    expect((await read()).canReadContent).toBe(true)
  })
})
