import { coded, same, type Text, text } from "../domain/Text"

/** Messages of courses, modules, lessons and learning; spec §7 strings verbatim (Portuguese by default, English on request). */
export const courseMessages = coded({
  moduleNotFound: same("Module not found"),
  invalidCourseId: same("Valid course ID is required"),
  lessonNotFound: text("Aula não encontrada.", "Lesson not found."),
  notACoursesSpace: text(
    "Este espaço não é um espaço de cursos (module courses).",
    "This space is not a courses space (module courses)."
  ),
  courseStatusMove: (from: string, to: string, allowed: ReadonlyArray<string>): Text =>
    text(
      `Não é possível mudar o status do curso de ${from} para ${to}. Movimentos permitidos: ${
        allowed.length > 0 ? allowed.join(", ") : "nenhum"
      }.`,
      `The course status cannot change from ${from} to ${to}. Allowed moves: ${
        allowed.length > 0 ? allowed.join(", ") : "none"
      }.`
    ),
  lessonOtherCourse: text(
    "A aula só pode ser movida para um módulo do mesmo curso.",
    "A lesson can only move to a module of the same course."
  ),
  lessonContentBlank: (field: string): Text =>
    text(`${field} não pode ficar em branco.`, `${field} must not be blank.`),
  fieldAliasDisagrees: (field: string, alias: string): Text =>
    text(
      `${field} e ${alias} são o mesmo campo: envie apenas um, ou o mesmo valor nos dois.`,
      `${field} and ${alias} are the same field: send one of them, or the same value in both.`
    ),
  courseNotPublished: text(
    "Só é possível se inscrever em um curso publicado.",
    "Only a published course accepts enrollments."
  ),
  enrollmentRequired: text(
    "Inscreva-se no curso antes de registrar progresso.",
    "Enroll in the course before recording progress."
  ),
  lessonLocked: (availableAt: string): Text =>
    text(`Esta aula será liberada em ${availableAt}.`, `This lesson is released on ${availableAt}.`),
  progressEmpty: text(
    "Envie completed, percent ou lastPositionSeconds.",
    "Send completed, percent or lastPositionSeconds."
  ),
  courseCreated: text("Curso criado com sucesso.", "Course created."),
  courseUpdated: text("Curso atualizado com sucesso.", "Course updated."),
  courseDeleted: text("Curso removido com sucesso.", "Course removed."),
  courses: text("Cursos encontrados.", "Courses found."),
  course: text("Curso encontrado.", "Course found."),
  moduleCreated: text("Módulo criado com sucesso.", "Module created."),
  moduleUpdated: text("Módulo atualizado com sucesso.", "Module updated."),
  moduleDeleted: text("Módulo removido com sucesso.", "Module removed."),
  lessonCreated: text("Aula criada com sucesso.", "Lesson created."),
  lessonUpdated: text("Aula atualizada com sucesso.", "Lesson updated."),
  lessonDeleted: text("Aula removida com sucesso.", "Lesson removed."),
  enrolled: text("Inscrição realizada com sucesso.", "Enrolled."),
  alreadyEnrolled: text("Você já está inscrito neste curso.", "You are already enrolled in this course."),
  progressRecorded: text("Progresso registrado com sucesso.", "Progress recorded.")
})
