/**
 * Request bodies written by hand where the schema alone cannot tell a sensible value (one field among
 * several, dates in order, a real tax id…), by operation id. The others are made from the schemas
 * (`examples.ts`); every one decodes with its endpoint's payload schema (test/docs).
 */
const id = "0192d6a2-7c4b-7def-8a3b-1c2d3e4f5a6b"
const buyer = { name: "Ana Souza", email: "ana@example.com", taxId: "52998224725" }

export const requestExamples: Readonly<Record<string, unknown>> = {
  "identity.changePassword": { currentPassword: "Secret123", newPassword: "Secret456" },
  "communities.create": { name: "Reading Club" },
  "communities.update": { name: "Reading Club" },
  "profiles.renameTag": { name: "alumni" },
  "sections.create": { title: "Welcome", visibility: "public" },
  "spaces.create": { sectionId: id, title: "Announcements", module: "feed" },
  "courses.create": { spaceId: id, title: "Getting started", level: "beginner" },
  "events.create": {
    spaceId: id,
    title: "Monthly meetup",
    type: "online",
    startTime: "2026-12-01T19:00:00Z",
    endTime: "2026-12-01T20:30:00Z",
    joinUrl: "https://meet.example.com/monthly"
  },
  "content.create": { spaceId: id, title: "Welcome", body: "Say hello to the community." },
  "businessInformation.save": { country: "BR", legalName: "Reading Club Ltda", taxId: "52998224725" },
  "payoutSettings.save": { method: "PIX", pixKey: "ana@example.com" },
  "fees.simulate": { amount: 10000, paymentMethod: "CREDIT_CARD", installments: 3 },
  "coupons.create": { code: "WELCOME10", percentOff: 10, duration: "once" },
  "coupons.validate": { code: "WELCOME10", productId: id },
  "products.create": { type: "ONE_TIME", title: "E-book", price: 4990, currency: "BRL" },
  "subscriptionGroups.create": { name: "Premium", productIds: [id] },
  "pricingTiers.create": { name: "Premium", subscriptionGroupId: id },
  "checkout.quote": { productId: id, paymentMethod: "CREDIT_CARD", installments: 1 },
  "checkout.checkout": { productId: id, paymentMethod: "CREDIT_CARD", installments: 1, cardToken: "tok_visa", buyer },
  "payouts.request": { amount: 5000 },
  "gatewayAccounts.set": { accountId: "acct_1RodaExample0001" },
  "call4papersCalls.open": { spaceId: id, title: "Call for talks 2027" },
  "call4papersCalls.createTrack": { name: "Main stage" },
  "call4papersSubmissions.create": { title: "Effect in production", abstract: "What we learned in a year." },
  "call4papersSubmissions.review": { score: 4, comment: "Clear and useful." },
  "call4papersSubmissions.vote": { vote: 5 },
  "manageSubscriptions.setDiscount": { percent: 20 },
  "manageSubscriptions.extend": { days: 7 },
  "certificates.createTemplate": { spaceId: id, name: "Course completion" }
}
