import type { ExportFile } from "./PersonalData"

/** `README.txt` of an export: what it is, when it was made, how long its link lasts, and each file. */
export const exportReadme = (files: ReadonlyArray<ExportFile>, madeAt: Date, validDays: number): string =>
  [
    "Roda: exportação dos seus dados / export of your data",
    "",
    `Gerada em / Made at: ${madeAt.toISOString()}`,
    "",
    "Este arquivo ZIP reúne os dados pessoais que a plataforma guarda sobre a sua conta, em todas as",
    "comunidades (LGPD art. 18; GDPR art. 15 e 20). Cada arquivo .json é uma lista de registros.",
    `O link de download vale ${validDays} dias a partir de quando ficou pronto; depois o arquivo é apagado.`,
    "",
    "This ZIP file holds the personal data the platform keeps about your account, in every community",
    "(LGPD art. 18; GDPR art. 15 and 20). Each .json file is a list (a JSON array) of records.",
    `The download link is valid for ${validDays} days from when the export was ready; then the file is deleted.`,
    "",
    "Arquivos / Files:",
    ...(files.length === 0 ? ["(nenhum / none)"] : files.map((file) => `- ${file.name}: ${file.describes}`)),
    ""
  ].join("\n")
