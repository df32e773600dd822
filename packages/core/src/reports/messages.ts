import { coded, same, type Text, text } from "../domain/Text"

/** Messages of reports and e-mail stats (Portuguese by default). */
export const reportMessages = coded({
  sales: text("Relatório de vendas.", "Sales report."),
  subscriptions: text("Relatório de assinaturas.", "Subscriptions report."),
  members: text("Relatório de membros.", "Members report."),
  engagement: text("Relatório de engajamento.", "Engagement report."),
  events: text("Relatório de eventos.", "Events report."),
  courses: text("Relatório de cursos.", "Courses report."),
  overview: text("Visão geral.", "Overview."),
  memberActivity: text("Atividade do membro.", "Member activity."),
  emailStats: text("Estatísticas de e-mail.", "E-mail stats."),
  profileNotFound: text("Perfil não encontrado.", "Profile not found."),
  periodOrder: same("from must not be after to"),
  outsideYears: same("the range must fall within the years 0001 to 9999"),
  tooLong: (years: number): Text => same(`the range must not span more than ${years} years`),
  tooManyPeriods: (max: number): Text => same(`the range has more than ${max} periods; pick a larger interval`)
})
