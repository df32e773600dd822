import type { Text } from "../domain/Text"
import { text } from "../domain/Text"

export interface ModuleInfo {
  readonly id: string
  readonly name: Text
  readonly description: Text
  /**
   * Whether spaces of this module may be created now. A module whose feature is not built yet is listed
   * with `available: false` and refused (400, param `module`); set it to `true` when the feature lands.
   */
  readonly available: boolean
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
      available: true,
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
        available: true,
        name: text("Cursos", "Courses"),
        description: text("Cursos com módulos, aulas e progresso.", "Courses with modules, lessons and progress.")
      },
      {
        id: "certificates",
        available: true,
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
        available: true,
        name: text("Eventos", "Events"),
        description: text("Eventos online e presenciais com inscrições.", "Online and in-person events with sign-ups.")
      },
      {
        id: "call4papers",
        available: true,
        name: text("Chamada de trabalhos", "Call for papers"),
        description: text(
          "Chamadas de propostas com trilhas, avaliações e votação.",
          "Calls for proposals with tracks, reviews and voting."
        )
      }
    ]
  }
]

const catalogueModules = moduleCatalogue.flatMap((category) => category.modules)

export const moduleIds: ReadonlyArray<string> = catalogueModules.map((m) => m.id)

/** The modules spaces may be created with (or moved to) now. */
export const availableModuleIds: ReadonlyArray<string> = catalogueModules.filter((m) => m.available).map((m) => m.id)
