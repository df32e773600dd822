import { Layer } from "effect"
import { feature } from "../http/Feature"
import { FanOut } from "./FanOut"
import { NotificationsHttp } from "./Http"
import { NotificationMailRepo } from "./mail/MailRepo"
import { NotificationMail } from "./mail/NotificationMail"
import { Unsubscribe } from "./mail/Unsubscribe"
import { NotificationUnsubscribeHttp } from "./mail/UnsubscribeHttp"
import { Notifications } from "./Notifications"
import { NotificationStream } from "./NotificationStream"
import { NotificationsRepo } from "./Repo"

export const notificationsFeature = feature(
  Layer.mergeAll(
    Notifications.Default,
    NotificationStream.Default,
    Unsubscribe.Default,
    Layer.effectDiscard(FanOut),
    NotificationMail
  ).pipe(Layer.provideMerge(Layer.merge(NotificationsRepo.Default, NotificationMailRepo.Default))),
  Layer.mergeAll(NotificationsHttp, NotificationUnsubscribeHttp)
)
