export interface Probe {
  readonly pass: string
  readonly operation?: string
  readonly method: string
  readonly path: string
  readonly variant?: string
  readonly role: string
  readonly json?: unknown
  readonly raw?: string
  readonly headers?: Record<string, string>
  readonly otherIdInPath?: boolean
}
export interface Reply {
  readonly status: number
  readonly text: string
  readonly body?: unknown
}
export interface Community {
  readonly marker: string
  readonly ids: ReadonlySet<string>
}
export interface Finding {
  readonly pass: string
  readonly method: string
  readonly path: string
  readonly variant?: string
  readonly role: string
  readonly status: number
  readonly reason: string
  readonly excerpt: string
}
export declare const finding: (probe: Probe, reply: Reply, reason: string) => Finding
export declare const describeFinding: (finding: Finding) => string
export declare const leakIn: (text: string, sent: string, other: Community) => string | undefined
export declare const crossCommunityByDesign: ReadonlySet<string>
export declare const sentText: (probe: Probe) => string
export declare const classify: (probe: Probe, reply: Reply, other?: Community) => Array<Finding>
export declare const changedReads: (before: ReadonlyMap<string, string>, after: ReadonlyMap<string, string>) => Array<string>
export declare const classifyRefusedWrite: (
  probe: Probe,
  reply: Reply,
  before: ReadonlyMap<string, string>,
  after: ReadonlyMap<string, string>
) => Array<Finding>
