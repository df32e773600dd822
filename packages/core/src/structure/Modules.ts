import type { Text } from "../domain/Text"
import { text } from "../domain/Text"

export interface ModuleInfo {
  readonly id: string
  readonly name: Text
  readonly description: Text
}

export interface ModuleCategory {
  readonly id: string
  readonly name: Text
  readonly modules: ReadonlyArray<ModuleInfo>
}

/** The catalogue of space modules (`GET /api/spaces/modules`), by category. */
export const moduleCatalogue: ReadonlyArray<ModuleCategory> = [
  {
    id: "community",
    name: text("Comunidade", "Community"),
    modules: [{
      id: "feed",
      name: text("Feed", "Feed"),
      description: text("Publicações, comentários e reações dos membros.", "Members' posts, comments and reactions.")
    }]
  },
  {
    id: "learning",
    name: text("Aprendizado", "Learning"),
    modules: [
      {
        id: "courses",
        name: text("Cursos", "Courses"),
        description: text("Cursos com módulos, aulas e progresso.", "Courses with modules, lessons and progress.")
      },
      {
        id: "certificates",
        name: text("Certificados", "Certificates"),
        description: text(
          "Certificados emitidos a partir de modelos, com verificação pública.",
          "Certificates issued from templates, with public verification."
        )
      }
    ]
  },
  {
    id: "events",
    name: text("Eventos", "Events"),
    modules: [
      {
        id: "events",
        name: text("Eventos", "Events"),
        description: text("Eventos online e presenciais com inscrições.", "Online and in-person events with sign-ups.")
      },
      {
        id: "call4papers",
        name: text("Chamada de trabalhos", "Call for papers"),
        description: text(
          "Chamadas de propostas com trilhas, avaliações e votação.",
          "Calls for proposals with tracks, reviews and voting."
        )
      }
    ]
  }
]

export const moduleIds: ReadonlyArray<string> = moduleCatalogue.flatMap((category) => category.modules.map((m) => m.id))
