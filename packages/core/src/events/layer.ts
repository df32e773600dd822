import { feature } from "../http/Feature"
import { Events } from "./Events"
import { EventsHttp } from "./Http"

export const eventsFeature = feature(Events.Default, EventsHttp)
