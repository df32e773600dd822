import { Effect } from "effect"
import { RodaApi } from "../api/RodaApi"
import { CurrentMember, CurrentVisitor } from "../domain/Caller"
import { apiGroup } from "../http/engine/apiGroup"
import { constantPlainJson } from "../http/engine/PlainJson"
import { ok, page } from "../http/Reply"
import { viewerOfVisitor } from "./Access"
import { ModulesAnswer } from "./Api"
import { structureMessages as M } from "./messages"
import { moduleCatalogue } from "./Modules"
import { Sections } from "./Sections"
import { Spaces } from "./Spaces"

const visitor = Effect.map(CurrentVisitor, viewerOfVisitor)

/** The catalogue of space modules never changes while the process runs: one answer per language. */
const modules = constantPlainJson(ModulesAnswer, (language) => ({
  success: true as const,
  message: M.spaceModules[language],
  data: moduleCatalogue.map((category) => ({
    id: category.id,
    name: category.name[language],
    modules: category.modules.map((m) => ({
      id: m.id,
      name: m.name[language],
      description: m.description[language],
      available: m.available
    }))
  }))
}))

export const SectionsHttp = apiGroup(RodaApi, "sections", (handlers) =>
  Effect.gen(function*() {
    const sections = yield* Sections
    return handlers
      .handle("list", ({ urlParams }) =>
        visitor.pipe(
          Effect.flatMap((viewer) => sections.list(viewer, urlParams)),
          Effect.flatMap((result) => page(M.sections, result))
        ))
      .handle("get", ({ path }) =>
        visitor.pipe(
          Effect.flatMap((viewer) => sections.get(viewer, path.id)),
          Effect.flatMap((data) => ok(M.section, data))
        ))
      .handle("create", ({ payload }) =>
        CurrentMember.pipe(
          Effect.flatMap((member) => sections.create(member, payload)),
          Effect.flatMap((data) => ok(M.sectionCreated, data))
        ))
      .handle("update", ({ path, payload }) =>
        CurrentMember.pipe(
          Effect.flatMap((member) => sections.update(member, path.id, payload)),
          Effect.flatMap((data) => ok(M.sectionUpdated, data))
        ))
      .handle("remove", ({ path }) =>
        CurrentMember.pipe(
          Effect.flatMap((member) => sections.remove(member, path.id)),
          Effect.zipRight(ok(M.sectionRemoved, null))
        ))
      .handle("reorder", ({ payload }) =>
        CurrentMember.pipe(
          Effect.flatMap((member) => sections.reorder(member, payload.ids)),
          Effect.flatMap((data) => ok(M.sectionsReordered, data))
        ))
  }))

export const SpacesHttp = apiGroup(RodaApi, "spaces", (handlers) =>
  Effect.gen(function*() {
    const spaces = yield* Spaces
    return handlers
      .handle("list", ({ urlParams }) =>
        visitor.pipe(
          Effect.flatMap((viewer) => spaces.list(viewer, urlParams)),
          Effect.flatMap((result) => page(M.spaces, result))
        ))
      .handle("modules", modules)
      .handle("get", ({ path }) =>
        visitor.pipe(
          Effect.flatMap((viewer) => spaces.get(viewer, path.id)),
          Effect.flatMap((data) => ok(M.space, data))
        ))
      .handle("create", ({ payload }) =>
        CurrentMember.pipe(
          Effect.flatMap((member) => spaces.create(member, payload)),
          Effect.flatMap((data) => ok(M.spaceCreated, data))
        ))
      .handle("update", ({ path, payload }) =>
        CurrentMember.pipe(
          Effect.flatMap((member) => spaces.update(member, path.id, payload)),
          Effect.flatMap((data) => ok(M.spaceUpdated, data))
        ))
      .handle("remove", ({ path }) =>
        CurrentMember.pipe(
          Effect.flatMap((member) => spaces.remove(member, path.id)),
          Effect.zipRight(ok(M.spaceRemoved, null))
        ))
      .handle("reorder", ({ payload }) =>
        CurrentMember.pipe(
          Effect.flatMap((member) => spaces.reorder(member, payload.sectionId, payload.ids)),
          Effect.flatMap((data) => ok(M.spacesReordered, data))
        ))
  }))
