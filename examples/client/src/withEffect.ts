import { FetchHttpClient } from "@effect/platform"
import { makeRodaClient } from "@roda/client"
import { Effect } from "effect"

/**
 * A host written with Effect: signs up, opens a community with a section, lists its sections, and
 * handles a typed failure (a second sign-up with the same e-mail answers 409).
 */
export const onboardWithEffect = (baseUrl: string, email: string) =>
  Effect.gen(function*() {
    const anonymous = yield* makeRodaClient({ baseUrl })
    const signedUp = yield* anonymous.identity.register({
      payload: { fullName: "Eva Effect", email, password: "Secret123" }
    })
    const { token } = signedUp.data
    const community = yield* (yield* makeRodaClient({ baseUrl, token })).communities.create({
      payload: { name: "Effect Readers" }
    })
    const roda = yield* makeRodaClient({ baseUrl, token, communityId: community.data.id })
    yield* roda.sections.create({ payload: { title: "Welcome" } })
    const sections = yield* roda.sections.list({ urlParams: { limit: 10 } })
    const again = yield* anonymous.identity.register({
      payload: { fullName: "Eva Again", email, password: "Secret123" }
    })
      .pipe(
        Effect.as("registered twice"),
        Effect.catchTag("AppError", (error) => Effect.succeed(`${error.status}: ${error.text.pt}`))
      )
    return { community: community.data.name, sections: sections.data.map((section) => section.title), again }
  }).pipe(Effect.provide(FetchHttpClient.layer))
