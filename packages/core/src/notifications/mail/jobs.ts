/** The jobs that e-mail notifications (`NotificationMail` handles them). */
export const INSTANT_MAIL_JOB = "notifications.instantMail"
export const DIGEST_JOB = "notifications.digest"

const MINUTE = 60_000

/**
 * The job that e-mails a community's `instant` notifications, one per community and minute: it is due
 * when the minute of `at` ends, so a burst of notifications in a minute is one job, one run.
 */
export const instantMailJob = (communityId: string, at: Date) => {
  const minute = Math.floor(at.getTime() / MINUTE)
  return {
    kind: INSTANT_MAIL_JOB,
    key: `${communityId}:${minute}`,
    payload: { communityId },
    runAt: (minute + 1) * MINUTE
  }
}
