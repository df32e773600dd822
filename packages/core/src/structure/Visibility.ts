import type { Visibility } from "./Access"

/** The ladder, most open first: anyone, members of the community, staff and granted members. */
export const visibilities = ["public", "private", "secret"] as const satisfies ReadonlyArray<Visibility>

const rank = (visibility: Visibility) => visibilities.indexOf(visibility)

/** Whether `space` is more open than `section` allows (a space can never be more open than its section). */
export const moreOpenThan = (space: Visibility, section: Visibility) => rank(space) < rank(section)
