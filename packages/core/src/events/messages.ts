import { coded, same, type Text, text } from "../domain/Text"

/** Messages of events, participation and streams (Portuguese by default, English on request). */
export const eventMessages = coded({
  eventNotFound: text("Evento não encontrado.", "Event not found."),
  invalidEventId: same("Valid event ID is required"),
  notAnEventsSpace: text(
    "Este espaço não é um espaço de eventos (module events).",
    "This space is not an events space (module events)."
  ),
  eventTimesOrder: text(
    "O início do evento (startTime) deve ser anterior ao fim (endTime).",
    "The event's startTime must be before its endTime."
  ),
  eventAddressRequired: text(
    "Eventos presenciais precisam de endereço (address).",
    "In-person events need an address."
  ),
  eventAddressPartRequired: (part: string): Text =>
    text(
      `address.${part} é obrigatório para eventos presenciais.`,
      `address.${part} is required for in-person events.`
    ),
  eventCategoryUnknown: (id: string): Text =>
    text(
      `Categoria de evento desconhecida: ${id}. Veja GET /api/events/categories.`,
      `Unknown event category: ${id}. See GET /api/events/categories.`
    ),
  eventCapacityBelowGoing: (going: number): Text =>
    text(
      `A capacidade não pode ser menor que o número de participantes confirmados (${going}).`,
      `The capacity cannot be lower than the number of people going (${going}).`
    ),
  eventHostOrStaff: text(
    "Apenas o anfitrião do evento ou owner, admin ou moderator podem fazer isso.",
    "Only the event's host or an owner, admin or moderator may do this."
  ),
  streamStatusMove: (from: string, to: string, allowed: ReadonlyArray<string>): Text =>
    text(
      `Não é possível mudar a transmissão de ${from} para ${to}. Movimentos permitidos: ${
        allowed.length > 0 ? allowed.join(", ") : "nenhum"
      }.`,
      `The stream cannot move from ${from} to ${to}. Allowed moves: ${
        allowed.length > 0 ? allowed.join(", ") : "none"
      }.`
    ),
  eventCategories: text("Categorias de eventos.", "Event categories."),
  events: text("Eventos encontrados.", "Events found."),
  event: text("Evento encontrado.", "Event found."),
  eventCreated: text("Evento criado com sucesso.", "Event created."),
  eventUpdated: text("Evento atualizado com sucesso.", "Event updated."),
  eventDeleted: text("Evento removido com sucesso.", "Event removed."),
  participationGoing: text("Presença confirmada.", "You are going."),
  participationWaitlisted: text(
    "Evento lotado: você está na lista de espera.",
    "The event is full: you are on the waitlist."
  ),
  participationCancelled: text("Participação cancelada.", "Participation cancelled."),
  participants: text("Participantes encontrados.", "Participants found."),
  checkInTarget: text(
    "Informe profileId ou code (o código do ingresso), apenas um deles.",
    "Send either profileId or code (the ticket's code), exactly one."
  ),
  participantNotFound: text("Participante não encontrado neste evento.", "No such participant in this event."),
  ticketNotFound: text("Ingresso não encontrado neste evento.", "No ticket with this code in this event."),
  checkInNotGoing: (status: string): Text =>
    text(
      `Apenas participantes confirmados (going) podem fazer check-in. Situação atual: ${status}.`,
      `Only participants going can be checked in. Current status: ${status}.`
    ),
  checkedIn: text("Check-in realizado.", "Checked in."),
  alreadyCheckedIn: text("Check-in já realizado anteriormente.", "Already checked in."),
  attendance: text("Presenças encontradas.", "Attendance found."),
  streamStarted: text("Transmissão iniciada.", "Stream started."),
  streamStopped: text("Transmissão encerrada.", "Stream stopped.")
})
