import { type Client } from "@modelcontextprotocol/sdk/client/index.js"
import type { Roda } from "@roda/core"
import { randomUUID } from "node:crypto"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { courseCommunity, publishedCourse } from "../../core/test/support/courses"
import { createEvent } from "../../core/test/support/events"
import { client, startRoda } from "../../core/test/support/harness"
import { createSpace } from "../../core/test/support/structure"
import { tools } from "../src/index"
import { connectInMemory, errorOf } from "./support"

let roda: Roda
let owner: Client
let member: Client
let ids: Record<string, string>

const connect = (token: string, communityId: string) => connectInMemory(roda, token, communityId)

beforeAll(async () => {
  roda = startRoda()
  const api = client(roda)
  const setup = await courseCommunity(api, "MCP tools")
  const course = await publishedCourse(api, setup, { modules: 1, lessons: 1 })
  const eventsSpace = await createSpace(api, setup, setup.section.id, { visibility: "public", module: "events" })
  const event = await createEvent(api, { ...setup, space: eventsSpace })
  const person = await setup.addMember("member", "Mia Member")
  ids = {
    sectionId: setup.section.id,
    spaceId: setup.space.id,
    courseId: course.id,
    lessonId: course.modules[0]!.lessons[0]!.id,
    eventId: event.id,
    personProfileId: person.profileId
  }
  owner = await connect(setup.owner.token, setup.community.id)
  member = await connect(person.token, setup.community.id)
})

afterAll(async () => {
  await owner.close()
  await member.close()
  await roda.dispose()
})

/** Arguments for each tool: real ids where the community has the thing, an unknown one where not. */
const argumentsOf = (name: string): Record<string, unknown> =>
  ({
    get_section: { id: ids.sectionId },
    get_space: { id: ids.spaceId },
    search: { q: "Curso" },
    set_member_tags: { id: randomUUID(), tags: ["x"] },
    create_status_post: { body: "Todas as ferramentas" },
    comment: { type: "event", id: ids.eventId, body: "Vou!" },
    react: { type: "event", id: ids.eventId, reaction: "celebrate" },
    course_outline: { id: ids.courseId },
    enroll_in_course: { courseId: ids.courseId },
    record_lesson_progress: { courseId: ids.courseId, lessonId: ids.lessonId, completed: true },
    participate_in_event: { id: ids.eventId },
    list_event_participants: { id: ids.eventId },
    create_coupon: { code: `MCP${randomUUID().slice(0, 6).toUpperCase()}`, percentOff: 10, duration: "once" },
    cancel_subscription_at_period_end: { subscriptionId: randomUUID() },
    issue_certificates: { templateId: randomUUID(), spaceId: ids.spaceId, profileIds: [randomUUID()] },
    verify_certificate: { code: "NOPE-NOPE" },
    list_calls_for_papers: { spaceId: ids.spaceId },
    list_submissions: { id: randomUUID() },
    get_submission: { sid: randomUUID() },
    review_submission: { sid: randomUUID(), score: 4 },
    vote_on_submission: { sid: randomUUID(), vote: 5 },
    open_call_for_papers: { spaceId: ids.spaceId, title: "Chamada de todas as ferramentas" },
    set_call_status: { id: randomUUID(), status: "published" },
    list_call_tracks: { id: randomUUID() },
    create_call_track: { id: randomUUID(), name: "Trilha" },
    update_call_track: { trackId: randomUUID(), name: "Trilha" },
    remove_call_track: { trackId: randomUUID() },
    list_call_owners: { id: randomUUID() },
    invite_call_owner: { id: randomUUID(), profileId: randomUUID() },
    remove_call_owner: { ownerId: randomUUID() },
    list_track_reviewers: { trackId: randomUUID() },
    invite_track_reviewer: { trackId: randomUUID(), profileId: randomUUID() },
    remove_track_reviewer: { reviewerId: randomUUID() },
    decide_submission: { sid: randomUUID(), decision: "accept" },
    create_webhook: { url: "https://hooks.example.com/roda", events: ["member.joined"] },
    update_webhook: { id: randomUUID(), enabled: false },
    send_test_webhook: { id: randomUUID() },
    webhook_deliveries: { id: randomUUID() },
    retry_webhook_delivery: { deliveryId: randomUUID() },
    mark_notification_read: { id: randomUUID() },
    follow_space: { id: ids.spaceId }
  })[name] ?? {}

describe("every tool", () => {
  it("answers the owner with the route's JSON or the route's 4xx, never a server error", async () => {
    const outcomes: Record<string, number> = {}
    for (const tool of tools) {
      // The SDK client checks each successful answer against the tool's output schema.
      const result = await owner.callTool({ name: tool.name, arguments: argumentsOf(tool.name) })
      outcomes[tool.name] = result.isError ? errorOf(result).status : 200
    }
    for (const [name, status] of Object.entries(outcomes)) expect(status, name).toBeLessThan(500)
    const succeeded = Object.entries(outcomes).filter(([, status]) => status === 200).map(([name]) => name)
    expect(succeeded).toEqual(expect.arrayContaining([
      "community_overview",
      "list_sections",
      "get_section",
      "list_spaces",
      "get_space",
      "search",
      "feed",
      "list_members",
      "create_status_post",
      "comment",
      "react",
      "list_courses",
      "course_outline",
      "list_events",
      "participate_in_event",
      "list_event_participants",
      "list_products",
      "list_plans",
      "list_coupons",
      "create_coupon",
      "list_subscriptions",
      "list_sales",
      "sales_report",
      "overview_report",
      "list_certificates",
      "list_webhooks",
      "create_webhook",
      "list_webhook_events",
      "list_notifications",
      "unread_notification_count",
      "mark_all_notifications_read",
      "follow_space"
    ]))
    expect(outcomes.mark_notification_read).toBe(404)
    expect(outcomes.cancel_subscription_at_period_end).toBe(404)
  })

  it("lets a member enroll, record progress and take part, as the routes do", async () => {
    const enrolled = await member.callTool({ name: "enroll_in_course", arguments: argumentsOf("enroll_in_course") })
    expect(enrolled.isError).toBeFalsy()
    const progress = await member.callTool({
      name: "record_lesson_progress",
      arguments: argumentsOf("record_lesson_progress")
    })
    expect((progress.structuredContent as any).data).toMatchObject({ lessonId: ids.lessonId, completed: true })
    const participating = await member.callTool({ name: "participate_in_event", arguments: { id: ids.eventId } })
    expect(participating.isError).toBeFalsy()
    const participants = await member.callTool({ name: "list_event_participants", arguments: { id: ids.eventId } })
    expect(JSON.stringify((participants.structuredContent as any).data)).toContain("Mia Member")
    const report = await member.callTool({ name: "sales_report", arguments: {} })
    expect(errorOf(report).status).toBe(403)
  })

  it("tells a member of a mention and marks it read", async () => {
    const post = await owner.callTool({
      name: "create_status_post",
      arguments: { body: `Olá @[Mia](${ids.personProfileId})` }
    })
    expect(post.isError).toBeFalsy()
    const listed = await member.callTool({ name: "list_notifications", arguments: { unread: "true" } })
    const [mention] = (listed.structuredContent as any).data
    expect(mention).toMatchObject({ kind: "mention", readAt: null })
    expect(typeof mention.text).toBe("string")
    const read = await member.callTool({ name: "mark_notification_read", arguments: { id: mention.id } })
    expect((read.structuredContent as any).data.readAt).not.toBeNull()
    const count = await member.callTool({ name: "unread_notification_count", arguments: {} })
    expect((count.structuredContent as any).data.count).toBe(0)
  })
})
