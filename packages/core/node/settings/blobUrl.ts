import { problem, type SettingCheck } from "./checks"

/** An S3 bucket name: 3 to 63 lower-case letters, digits, dots and hyphens, starting and ending with a letter or digit. */
const BUCKET = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/

const isBlobUrl = (value: string) => {
  if (value === "postgres") return true
  if (!URL.canParse(value)) return false
  const url = new URL(value)
  if (url.protocol === "s3:") return BUCKET.test(url.hostname) && url.search === "" && url.hash === ""
  return url.protocol === "file:" && url.host === "" && value.startsWith("file:///")
}

/** `BLOB_URL` (where stored files go), its form only: `s3://bucket[/prefix]`, `file:///absolute/path` or `postgres`. */
export const blobUrlCheck: SettingCheck = {
  variables: ["BLOB_URL"],
  check: ({ BLOB_URL: value }) =>
    value === undefined || isBlobUrl(value.trim()) ? [] : [problem(
      "BLOB_URL",
      `${JSON.stringify(value)} is not a place for stored files`,
      "set s3://bucket or s3://bucket/prefix, file:///absolute/path, or postgres"
    )]
}
