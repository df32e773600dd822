import { coded, same, type Text, text } from "../domain/Text"

/** Messages of sections and spaces; spec §7 strings verbatim (Portuguese by default, English on request). */
export const structureMessages = coded({
  sectionOfSpaceNotFound: text(
    "Seção não encontrada ou não pertence a esta comunidade.",
    "Section not found or does not belong to this community."
  ),
  spaceMoreOpen: (section: string, visibility: string): Text =>
    same(`This space cannot be more open than the section "${section}" (${visibility}).`),
  sectionMoreClosed: (section: string, visibility: string, space: string, spaceVisibility: string): Text =>
    same(
      `This space cannot be more open than the section "${section}" (${visibility}): space "${space}" is ${spaceVisibility}.`
    ),
  accessGrantUnknown: (id: string): Text => same(`The access grant ${id} does not exist in this community.`),
  sectionNotFound: text("Seção não encontrada.", "Section not found."),
  sectionHasSpaces: text(
    "Esta seção ainda tem espaços: mova-os ou remova-os antes de remover a seção.",
    "This section still has spaces: move or remove them before removing the section."
  ),
  spaceUnknown: text("Espaço não encontrado.", "Space not found."),
  spaceHasContent: text(
    "Este espaço ainda tem conteúdo (por exemplo, cursos): remova-o antes de remover o espaço.",
    "This space still has content (for example, courses): remove it before removing the space."
  ),
  sectionsReorderMismatch: text(
    "A lista deve conter cada seção da comunidade exatamente uma vez.",
    "ids must list every section of the community exactly once."
  ),
  spacesReorderMismatch: text(
    "A lista deve conter cada espaço da seção exatamente uma vez.",
    "ids must list every space of the section exactly once."
  ),
  sections: text("Seções encontradas.", "Sections found."),
  section: text("Seção encontrada.", "Section found."),
  sectionCreated: text("Seção criada com sucesso.", "Section created."),
  sectionUpdated: text("Seção atualizada com sucesso.", "Section updated."),
  sectionRemoved: text("Seção removida com sucesso.", "Section removed."),
  sectionsReordered: text("Seções reordenadas com sucesso.", "Sections reordered."),
  spaces: text("Espaços encontrados.", "Spaces found."),
  space: text("Espaço encontrado.", "Space found."),
  spaceCreated: text("Espaço criado com sucesso.", "Space created."),
  spaceUpdated: text("Espaço atualizado com sucesso.", "Space updated."),
  spaceRemoved: text("Espaço removido com sucesso.", "Space removed."),
  spacesReordered: text("Espaços reordenados com sucesso.", "Spaces reordered."),
  spaceModules: text("Módulos de espaço disponíveis.", "Available space modules.")
})
