/** The error envelope a tool error carries as its text (`success: false`, `status`, `code`, `message`, `errors`). */
export const errorOf = (result: unknown) =>
  JSON.parse(((result as { content: unknown }).content as Array<{ text: string }>)[0]!.text) as {
    success: false
    status: number
    code: string
    message: string
    errors?: Array<{ param: string; msg: string }>
    challenge?: string
  }
