import { Args, Command, Options } from "@effect/cli"
import { type Account, Certificates, CertificateVerification, Identity, type Member, Memberships } from "@roda/core"
import { Effect, Option } from "effect"
import { readRecipients } from "../csv"
import { failure } from "../errors"
import { cliMessages } from "../messages"
import { as, json, reasonOf, uuid } from "../options"
import { type Column, fields, print, table } from "../output"
import { makeProgress } from "../progress"
import { memberOf, operator, withServices } from "../session"

const communityOption = Options.text("community").pipe(
  Options.withAlias("c"),
  Options.withDescription("Id of the community (the operator acts as their own profile there)")
)
const noWait = Options.boolean("no-wait").pipe(
  Options.withDescription("Return once the batch is queued (a running server generates it)")
)

/** Every command here shows or sends certificate links (pages, e-mails, a batch's certificates as JSON). */
const LINKS = { links: true } as const

/** How often a waiting command reads the batch's counters. */
const POLL_MS = 200

type Batch = Effect.Effect.Success<ReturnType<Certificates["batch"]>>

const finished = (batch: Batch) => batch.status === "completed" || batch.status === "completed_with_errors"

/** Reads the batch until every certificate is issued, failed or skipped, drawing the progress on stderr. */
const waitFor = (member: Member, batchId: string) =>
  Effect.gen(function*() {
    const certificates = yield* Certificates
    const progress = makeProgress()
    let batch = yield* certificates.batch(member, batchId)
    while (true) {
      const done = batch.issued + batch.failed + batch.skipped
      progress.update(done, batch.total, `issued ${batch.issued}, failed ${batch.failed}, skipped ${batch.skipped}`)
      if (finished(batch)) break
      yield* Effect.sleep(POLL_MS)
      batch = yield* certificates.batch(member, batchId)
    }
    progress.end()
    return batch
  })

/** The operator's membership in the community named by `--community`. */
const acting = (email: string, community: string) =>
  Effect.gen(function*() {
    const account: Account = yield* operator(email)
    return yield* memberOf(account, yield* uuid("community", community))
  })

/** Profile ids of the CSV's recipients: e-mails are looked up among the community's members. */
const profileIdsOf = (member: Member, path: string) =>
  Effect.gen(function*() {
    const recipients = yield* readRecipients(path)
    const identity = yield* Identity
    const memberships = yield* Memberships
    return yield* Effect.forEach(recipients, (recipient) =>
      recipient._tag === "Profile" ? Effect.succeed(recipient.profileId) : Effect.gen(function*() {
        const account = yield* identity.findByEmail(recipient.email)
        const membership = Option.isNone(account)
          ? Option.none()
          : yield* memberships.callerIn(member.communityId, account.value.id)
        const profileId = Option.flatMap(membership, (row) =>
          Option.fromNullable(row.profileId))
        if (Option.isNone(profileId)) {
          return yield* Effect.fail(failure(cliMessages.recipientNotMember(recipient.email)))
        }
        return profileId.value
      }))
  })

const batchView = (batch: Batch) => fields(batch)

const issue = Command.make(
  "issue",
  {
    as,
    json,
    noWait,
    community: communityOption,
    template: Options.text("template").pipe(Options.withDescription("Id of the template (active)")),
    space: Options.text("space").pipe(Options.withDescription("Id of the space")),
    file: Args.file({ name: "recipients.csv", exists: "yes" }).pipe(
      Args.withDescription("CSV of recipients: e-mails or profile ids, one per line (a header line is optional)")
    )
  },
  (input) =>
    withServices(
      Effect.gen(function*() {
        const member = yield* acting(input.as, input.community)
        const profileIds = yield* profileIdsOf(member, input.file)
        const batch = yield* (yield* Certificates).issue(member, {
          templateId: yield* uuid("template", input.template),
          spaceId: yield* uuid("space", input.space),
          profileIds
        })
        const result = input.noWait ? batch : yield* waitFor(member, batch.id)
        yield* print(input.json, result, batchView)
      }),
      { ...LINKS, runJobs: !input.noWait }
    )
).pipe(Command.withDescription("Issue certificates to the recipients of a CSV file, with a progress bar"))

interface FailedRow {
  readonly id: string
  readonly recipientName: string
  readonly status: string
  readonly attempts: number
  readonly lastError: string | null
}

const failedColumns: ReadonlyArray<Column<FailedRow>> = [
  ["CERTIFICATE", (row) => row.id],
  ["RECIPIENT", (row) => row.recipientName],
  ["ATTEMPTS", (row) => row.attempts],
  ["ERROR", (row) => row.lastError?.slice(0, 80)]
]

/** Every failed certificate of a batch (all pages). */
const failedOf = (member: Member, batchId: string) =>
  Effect.gen(function*() {
    const certificates = yield* Certificates
    const rows: Array<FailedRow> = []
    let cursor: string | null = null
    do {
      const page: { items: ReadonlyArray<FailedRow>; pagination: { nextCursor: string | null } } = yield* certificates
        .list(member, { batchId, status: "failed", limit: 100, ...(cursor ? { cursor } : {}) })
      rows.push(...page.items)
      cursor = page.pagination.nextCursor
    } while (cursor !== null)
    return rows
  })

const batchArg = Args.text({ name: "batchId" }).pipe(Args.withDescription("Id of the batch"))

const batch = Command.make(
  "batch",
  { as, json, community: communityOption, id: batchArg },
  (input) =>
    withServices(
      Effect.gen(function*() {
        const member = yield* acting(input.as, input.community)
        const id = yield* uuid("batchId", input.id)
        const found = yield* (yield* Certificates).batch(member, id)
        const failed = found.failed > 0 ? yield* failedOf(member, id) : []
        yield* print(input.json, { ...found, failedCertificates: failed }, ({ failedCertificates, ...data }) =>
          failedCertificates.length === 0
            ? batchView(data)
            : `${batchView(data)}\n\nFailed certificates\n${table(failedCertificates, failedColumns)}`)
      }),
      LINKS
    )
).pipe(Command.withDescription("Show a batch: counters, status and its failed certificates"))

const retry = Command.make(
  "retry",
  { as, json, noWait, community: communityOption, id: batchArg },
  (input) =>
    withServices(
      Effect.gen(function*() {
        const member = yield* acting(input.as, input.community)
        const id = yield* uuid("batchId", input.id)
        const certificates = yield* Certificates
        yield* certificates.batch(member, id)
        const failed = yield* failedOf(member, id)
        if (failed.length === 0) return yield* Effect.fail(failure(cliMessages.nothingToRetry))
        yield* Effect.forEach(failed, (row) => certificates.retry(member, row.id), { discard: true })
        const result = input.noWait ? yield* certificates.batch(member, id) : yield* waitFor(member, id)
        yield* print(input.json, { ...result, retried: failed.length }, fields)
      }),
      { ...LINKS, runJobs: !input.noWait }
    )
).pipe(Command.withDescription("Generate the failed certificates of a batch again"))

const revoke = Command.make(
  "revoke",
  {
    as,
    json,
    community: communityOption,
    id: Args.text({ name: "certificateId" }).pipe(Args.withDescription("Id of the certificate")),
    reason: Options.text("reason").pipe(Options.withDescription("Why (shown on the verification page)"))
  },
  (input) =>
    withServices(
      Effect.gen(function*() {
        const member = yield* acting(input.as, input.community)
        const id = yield* uuid("certificateId", input.id)
        const revoked = yield* (yield* Certificates).revoke(member, id, yield* reasonOf(input.reason, 500))
        yield* print(input.json, revoked, fields)
      }),
      LINKS
    )
).pipe(Command.withDescription("Revoke an issued certificate"))

const verify = Command.make(
  "verify",
  { json, code: Args.text({ name: "code" }).pipe(Args.withDescription("Verification code (XXXX-XXXX-XXXX-XXXX)")) },
  (input) =>
    withServices(
      Effect.gen(function*() {
        const verdict = yield* (yield* CertificateVerification).verify(input.code)
        yield* print(input.json, verdict, fields)
      }),
      LINKS
    )
).pipe(Command.withDescription("Verify a certificate by its code (anyone may: no --as)"))

export const certificates = Command.make("certificates").pipe(
  Command.withDescription("Certificates: issue a batch from a CSV, show a batch, retry failed, revoke, verify"),
  Command.withSubcommands([issue, batch, retry, revoke, verify])
)
