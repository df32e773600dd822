// Prints the closing line of a vitest JSON report: "N passed, N failed" (", N skipped").
import { readFileSync } from "node:fs"

const report = JSON.parse(readFileSync(process.argv[2], "utf8"))
const skipped = report.numPendingTests + report.numTodoTests
console.log(
  `${process.argv[3] ?? "tests"}: ${report.numPassedTests} passed, ${report.numFailedTests} failed` +
    (skipped > 0 ? `, ${skipped} skipped` : "")
)
