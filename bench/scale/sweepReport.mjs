// The GET sweep's tables (sweep.mjs): every case, the targets each misses, and the worst 20.

/** Reports and exports may take longer (issue 58): 300 ms. */
const isReport = (template) => /^\/api\/reports\/|export\.csv$/.test(template)
const budget = (template) => (isReport(template) ? { median: 300, p99: 300 } : { median: 25, p99: 60 })
const ms = (value) => (value === undefined ? "-" : value.toFixed(1))

/** What a case misses: latency over its budget, a scan or sort over 10,000 rows, statements that grow with the page. */
export const misses = (c, sameList) => {
  const out = []
  const b = budget(c.template)
  if (c.median > b.median) out.push(`median > ${b.median} ms`)
  if (c.p99 > b.p99) out.push(`p99 > ${b.p99} ms`)
  if ((c.findings ?? []).length > 0) out.push("scan/sort > 10,000 rows")
  const atMax = sameList?.statements
  if (atMax !== undefined && c.page === "first" && atMax !== c.statements) {
    out.push(`statements ${c.statements} → ${atMax} at limit 100`)
  }
  return out
}

const row = (cells) => `| ${cells.join(" | ")} |`
/** A case's row: route, role, page, status, median, p99, `statements`, then `rest`. */
const caseRow = (c, statements, rest) =>
  row([`\`${c.template}\``, c.role, c.page, String(c.status), ms(c.median), ms(c.p99), statements, ...rest])

export const markdownTable = (cases, seeded) => {
  const atMax = new Map(cases.filter((c) => c.countOnly).map((c) => [`${c.template} ${c.role}`, c]))
  const measured = cases.filter((c) => !c.skipped && !c.countOnly)
  const lines = [
    `Seeded: ${
      Object.entries(seeded.counts).map(([k, v]) => `${k} ${v.toLocaleString("en")}`).join(", ")
    } (per community, two communities).`,
    "",
    "Median and p99 of one client on the built server (one process); statements of one request to the embedded",
    "library with a recording client (first page / limit=100 for lists); the slowest statement's execution time",
    "and any Seq Scan or Sort of more than 10,000 rows in `EXPLAIN (ANALYZE, BUFFERS)` of the statements sent.",
    "",
    row(["route", "as", "page", "status", "median ms", "p99 ms", "statements", "slowest statement ms", "misses"]),
    row(["---", "---", "---", "---:", "---:", "---:", "---:", "---:", "---"])
  ]
  for (const c of measured) {
    const max = atMax.get(`${c.template} ${c.role}`)
    const statements = max === undefined || c.page !== "first"
      ? `${c.statements}`
      : `${c.statements} / ${max.statements}`
    lines.push(caseRow(c, statements, [
      ms(c.slowest?.ms),
      [...misses(c, c.page === "first" ? max : undefined), ...(c.findings ?? [])].join("; ") || "-"
    ]))
  }
  for (const c of cases.filter((c) => c.skipped)) {
    lines.push(row([`\`${c.template}\``, "-", "-", "-", "-", "-", "-", "-", c.skipped]))
  }
  const worst = [...measured].sort((a, b) => b.median - a.median).slice(0, 20)
  lines.push(
    "",
    "Worst 20 by median:",
    "",
    row(["route", "as", "page", "status", "median ms", "p99 ms", "statements", "slowest statement"])
  )
  lines.push(row(["---", "---", "---", "---:", "---:", "---:", "---:", "---"]))
  for (const c of worst) {
    lines.push(
      caseRow(c, String(c.statements), [`${ms(c.slowest?.ms)} ms: \`${(c.slowest?.text ?? "").slice(0, 100)}\``])
    )
  }
  const missing = measured.filter((c) =>
    misses(c, c.page === "first" ? atMax.get(`${c.template} ${c.role}`) : undefined).length > 0
  )
  lines.push("", `${measured.length} cases measured; ${missing.length} miss a target.`, "")
  return lines.join("\n")
}
