import { Effect, Layer } from "effect"
import { personalDataSubject } from "../communities/personalDataSubject"
import { PersonalData } from "../privacy/PersonalData"
import { personalDataErasures } from "./personalDataErasures"
import { personalDataFiles } from "./personalDataFiles"

/** Members' data rights over every feature (issue 56): the parts gathered from their owners. */
export const PersonalDataLive = Layer.effect(
  PersonalData,
  Effect.gen(function*() {
    const subjectOf = yield* personalDataSubject
    const files = (yield* Effect.all(personalDataFiles)).flat()
    const erasures = yield* Effect.all(personalDataErasures)
    return PersonalData.of({ subjectOf, files, erasures })
  })
)
