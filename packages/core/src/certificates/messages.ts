import { coded, same, type Text, text } from "../domain/Text"

const moves = (allowed: ReadonlyArray<string>, none: string) => allowed.length > 0 ? allowed.join(", ") : none

/** Messages of the certificates feature (house-style: a feature keeps its own catalogue). */
export const CertificateMessages = coded({
  statusMove: (from: string, to: string, allowed: ReadonlyArray<string>): Text =>
    text(
      `Não é possível mudar de ${from} para ${to}. Movimentos permitidos: ${moves(allowed, "nenhum")}.`,
      `Cannot move from ${from} to ${to}. Allowed moves: ${moves(allowed, "none")}.`
    ),
  ruleNeedsModule: (module: string): Text =>
    text(
      `Esta regra só vale para espaços do módulo ${module}.`,
      `This rule applies only to spaces of the ${module} module.`
    ),
  indexingHolderOnly: text(
    "Apenas o titular pode tornar a página do certificado visível para buscadores.",
    "Only the holder may make the certificate's page visible to search engines."
  ),
  rule: text("Regra de certificados do espaço.", "Certificate rule of the space."),
  ruleSaved: text("Regra de certificados atualizada.", "Certificate rule updated."),
  fonts: text("Fontes disponíveis.", "Available fonts."),
  templates: text("Modelos de certificado.", "Certificate templates."),
  template: text("Modelo de certificado.", "Certificate template."),
  templateCreated: text("Modelo de certificado criado.", "Certificate template created."),
  templateUpdated: text("Modelo de certificado atualizado.", "Certificate template updated."),
  templateActivated: text("Modelo de certificado ativado.", "Certificate template activated."),
  templateArchived: text("Modelo de certificado arquivado.", "Certificate template archived."),
  templateDuplicated: text("Modelo de certificado duplicado.", "Certificate template duplicated."),
  templateNotFound: text("Modelo de certificado não encontrado.", "Certificate template not found."),
  templateNotEditable: (status: string): Text =>
    text(
      `Um modelo ${status} não pode ser editado. Estados editáveis: draft, active.`,
      `A ${status} template cannot be edited. Editable states: draft, active.`
    ),
  templateNotActive: (status: string): Text =>
    text(
      `Somente modelos ativos emitem certificados; este está ${status}.`,
      `Only active templates issue certificates; this one is ${status}.`
    ),
  templateOtherSpace: text(
    "O modelo não pertence a este espaço.",
    "The template does not belong to this space."
  ),
  spaceIdRequired: text("ID do espaço é obrigatório.", "Space ID is required."),
  spaceNotFound: text(
    "Espaço não encontrado ou não pertence a esta comunidade.",
    "Space not found or not in this community."
  ),
  fontUnknown: (id: string): Text =>
    text(
      `A fonte ${id} não existe. Veja GET /api/certificates/fonts.`,
      `Font ${id} does not exist. See GET /api/certificates/fonts.`
    ),
  imageInvalid: same("must be a data URL (data:image/png;base64,… or data:image/jpeg;base64,…) of a PNG or JPEG image"),
  imageTooLarge: (maxKb: number): Text => same(`must be an image of at most ${maxKb} KB`),
  issued: text(
    "Emissão iniciada; acompanhe o lote.",
    "Issuing started; follow the batch."
  ),
  recipientsUnknown: (id: string): Text =>
    text(
      `O perfil ${id} não é membro ativo desta comunidade.`,
      `Profile ${id} is not an active member of this community.`
    ),
  batch: text("Lote de certificados.", "Certificate batch."),
  batchNotFound: text("Lote não encontrado.", "Batch not found."),
  certificates: text("Certificados.", "Certificates."),
  certificate: text("Certificado.", "Certificate."),
  certificateNotFound: text("Certificado não encontrado.", "Certificate not found."),
  certificateDeleted: text("Certificado excluído.", "Certificate deleted."),
  notDeletable: (status: string): Text =>
    text(
      `Somente certificados failed ou revoked podem ser excluídos; este está ${status}.`,
      `Only failed or revoked certificates may be deleted; this one is ${status}.`
    ),
  notRendered: (status: string): Text =>
    text(
      `O certificado ainda não tem arquivos (estado ${status}).`,
      `The certificate has no files yet (status ${status}).`
    ),
  notIssued: (status: string): Text =>
    text(
      `Somente certificados emitidos (issued) podem receber o e-mail de novo; este está ${status}.`,
      `Only issued certificates can be e-mailed again; this one is ${status}.`
    ),
  revoked: text("Certificado revogado.", "Certificate revoked."),
  reissued: text("Certificado reemitido.", "Certificate reissued."),
  retried: text("Geração do certificado reiniciada.", "Certificate generation restarted."),
  emailResent: text("E-mail do certificado reenviado.", "Certificate e-mail sent again."),
  indexingSaved: text("Visibilidade em buscadores atualizada.", "Search-engine visibility updated."),
  recipientGone: text(
    "O destinatário não é mais membro ativo desta comunidade.",
    "The recipient is no longer an active member of this community."
  ),
  holderOrStaff: text(
    "Somente o titular do certificado ou a equipe podem fazer isso.",
    "Only the certificate's holder or staff may do this."
  ),
  verified: text("Certificado verificado.", "Certificate verified."),
  codeUnknown: text("Código de certificado não encontrado.", "Certificate code not found."),
  credentialWithdrawn: text(
    "Este certificado foi revogado ou substituído: não há credencial válida para ele.",
    "This certificate was revoked or superseded: it has no valid credential."
  ),
  imageWithdrawn: text(
    "Este certificado foi revogado ou substituído: sua imagem não é mais servida.",
    "This certificate was revoked or superseded: its image is no longer served."
  ),
  fileLinkInvalid: text("Link de arquivo inválido ou expirado.", "File link invalid or expired."),
  preview: text("Pré-visualização.", "Preview.")
})
