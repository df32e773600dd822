// Prints every skipped test of a vitest JSON report, with the reason its title gives
// (testing/skips.ts), then the closing line: "<run>: N passed, N failed" (", N skipped").
import { readFileSync } from "node:fs"
import { relative } from "node:path"

const report = JSON.parse(readFileSync(process.argv[2], "utf8"))
const run = process.argv[3] ?? "tests"
const REASON = / \[skipped: (.+?)\]/

const skipped = report.testResults.flatMap((file) =>
  file.assertionResults
    .filter((test) => test.status === "skipped" || test.status === "pending" || test.status === "todo")
    .map((test) => ({ file: relative(process.cwd(), file.name), name: test.fullName }))
)
for (const { file, name } of skipped) {
  const reason = REASON.exec(name)?.[1] ?? "no reason given (skip it with testing/skips.ts, saying why)"
  console.log(`${run}: skipped: ${file} > ${name.replace(REASON, "")} (${reason})`)
}
console.log(
  `${run}: ${report.numPassedTests} passed, ${report.numFailedTests} failed` +
    (skipped.length > 0 ? `, ${skipped.length} skipped` : "")
)
