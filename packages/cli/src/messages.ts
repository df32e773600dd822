import { text } from "./lang"

/** The command line's own messages (domain refusals come from core, in the same two languages). */
export const cliMessages = {
  noAccount: (email: string) => text(`Nenhuma conta com o e-mail ${email}.`, `No account with the e-mail ${email}.`),
  notUuid: (name: string, value: string) =>
    text(`${name}: "${value}" não é um identificador (UUID).`, `${name}: "${value}" is not an id (UUID).`),
  notDate: (name: string, value: string) =>
    text(
      `--${name}: "${value}" não é uma data (2030-05-01) nem data e hora com fuso (2030-05-01T19:00:00Z).`,
      `--${name}: "${value}" is not a date (2030-05-01) nor a date-time with an offset (2030-05-01T19:00:00Z).`
    ),
  csvEmpty: (path: string) =>
    text(`${path}: nenhum e-mail ou id de perfil encontrado.`, `${path}: no e-mail or profile id found.`),
  csvUnreadable: (path: string, reason: string) =>
    text(`${path}: não foi possível ler o arquivo (${reason}).`, `${path}: cannot read the file (${reason}).`),
  csvBadEntry: (path: string, line: number, value: string) =>
    text(
      `${path}, linha ${line}: "${value}" não é um e-mail nem um id de perfil.`,
      `${path}, line ${line}: "${value}" is neither an e-mail nor a profile id.`
    ),
  recipientNotMember: (email: string) =>
    text(
      `${email} não é membro ativo desta comunidade.`,
      `${email} is not an active member of this community.`
    ),
  nothingToRetry: text("Nenhum certificado com falha neste lote.", "No failed certificate in this batch."),
  noPublicUrl: text(
    "Nenhum endereço público conhecido para os links (páginas e e-mails de certificados): defina PUBLIC_BASE_URL (por exemplo https://comunidade.exemplo) ou inicie o servidor uma vez com ele, que o registra no banco de dados.",
    "No public URL is known for links (certificate pages and e-mails): set PUBLIC_BASE_URL (for example https://community.example), or start the server once with it, which records it in the database."
  ),
  mcpUnavailable: text(
    "O servidor MCP (@roda/mcp) não está instalado.",
    "The MCP server (@roda/mcp) is not installed."
  )
} as const
