/** The error envelope a tool error carries as its text (`success: false`, `status`, `message`, `errors`). */
export const errorOf = (result: unknown) =>
  JSON.parse(((result as { content: unknown }).content as Array<{ text: string }>)[0]!.text) as {
    success: false
    status: number
    message: string
    errors?: Array<{ param: string; msg: string }>
    challenge?: string
  }
