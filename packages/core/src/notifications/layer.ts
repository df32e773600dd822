import { Layer } from "effect"
import { feature } from "../http/Feature"
import { FanOut } from "./FanOut"
import { NotificationsHttp } from "./Http"
import { Notifications } from "./Notifications"
import { NotificationStream } from "./NotificationStream"
import { NotificationsRepo } from "./Repo"

export const notificationsFeature = feature(
  Layer.mergeAll(Notifications.Default, NotificationStream.Default, Layer.effectDiscard(FanOut)).pipe(
    Layer.provideMerge(NotificationsRepo.Default)
  ),
  NotificationsHttp
)
