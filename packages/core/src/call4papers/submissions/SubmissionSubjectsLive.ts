import { Effect, Layer, Option } from "effect"
import type { Member } from "../../domain/Caller"
import { CallRoles } from "../calls/CallRoles"
import { SubmissionAccess } from "./SubmissionAccess"
import { readable } from "./submissionRules"
import { SubmissionSubjects } from "./SubmissionSubjects"

/** `SubmissionSubjects` by the rules of the submission's detail route: what the member may read, or none. */
export const SubmissionSubjectsLive = Layer.effect(
  SubmissionSubjects,
  Effect.map(SubmissionAccess, (access) => ({
    seen: (member: Member, id: string) =>
      access.seen(member, id).pipe(
        // as `GET /api/call4papers/submissions/{sid}` reads it (`Submissions.detail`)
        Effect.tap((seen) => seen.invitee ? Effect.void : readable(seen)),
        Effect.map((seen) =>
          Option.some({
            id: seen.submission.id,
            authorProfileId: seen.submission.proposerProfileId,
            excerpt: seen.submission.title.slice(0, 280),
            own: seen.proposer || seen.speaker || seen.invitee
          })
        ),
        Effect.catchAll(() => Effect.succeedNone)
      )
  }))
).pipe(Layer.provide(SubmissionAccess.Default), Layer.provide(CallRoles.Default))
