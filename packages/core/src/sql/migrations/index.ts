import identity from "./0001_identity"
import communities from "./0002_communities"
import profileSearch from "./0003_profile_search"
import structure from "./0004_structure"
import courses from "./0005_courses"
import social from "./0006_social"
import events from "./0007_events"
import titleSearch from "./0008_title_search"
import catalogue from "./0009_catalogue"
import moneyAccounts from "./0010_money_accounts"
import feesLedger from "./0011_fees_ledger"
import coupons from "./0012_coupons"
import checkout from "./0013_checkout"
import accountConsent from "./0014_account_consent"
import moneyBigint from "./0015_money_bigint"
import requestIdempotency from "./0016_request_idempotency"
import sellingReview from "./0017_selling_review"
import jobs from "./0018_jobs"
import certificates from "./0019_certificates"
import call4papers from "./0020_call4papers"
import call4papersSubmissions from "./0021_call4papers_submissions"
import subscriptions from "./0022_subscriptions"
import payoutsReports from "./0023_payouts_reports"
import oauth from "./0024_oauth"
import gateways from "./0025_gateways"
import subscriptionCharging from "./0026_subscription_charging"
import operatorAudit from "./0027_operator_audit"
import oauthRegistrationWindows from "./0028_oauth_registration_windows"
import readContracts from "./0029_read_contracts"
import subscriptionRequestKeysCreated from "./0030_subscription_request_keys_created"
import subscriptionScheduledPrice from "./0031_subscription_scheduled_price"
import call4papersCoSpeakerConsent from "./0032_call4papers_co_speaker_consent"
import payoutDestination from "./0033_payout_destination"
import blobs from "./0034_blobs"
import instanceSettings from "./0035_instance_settings"
import operatorAuditClientAddress from "./0036_operator_audit_client_address"
import authSessions from "./0037_auth_sessions"
import rateLimits from "./0038_rate_limits"
import emailNfc from "./0039_email_nfc"
import disputesConnect from "./0040_disputes_connect"
import idempotencyRateLimit from "./0041_idempotency_rate_limit"
import apiKeys from "./0042_api_keys"
import webhooks from "./0043_webhooks"
import webhookEventRetention from "./0044_webhook_event_retention"
import subscriptionPauses from "./0045_subscription_pauses"
import notifications from "./0046_notifications"
import eventAttendance from "./0047_event_attendance"
import moderation from "./0048_moderation"
import memberSuspensions from "./0049_member_suspensions"
import notificationEmails from "./0050_notification_emails"
import spaceSummariesModule from "./0051_space_summaries_module"
import memberBans from "./0052_member_bans"
import heldContent from "./0053_held_content"
import dataExports from "./0054_data_exports"
import accountErasure from "./0055_account_erasure"
import personalDataIndexes from "./0056_personal_data_indexes"
import moderatedEvents from "./0057_moderated_events"
import scaleIndexes from "./0058_scale_indexes"
import profileTagCounts from "./0059_profile_tag_counts"
import boundedTitleSearch from "./0060_bounded_title_search"
import heldCheck from "./0061_held_check"
import eventsHiddenIndex from "./0062_events_hidden_index"

/** Every migration, keyed `NNNN_name` for `Migrator.fromRecord`. */
export const migrations = {
  "0001_identity": identity,
  "0002_communities": communities,
  "0003_profile_search": profileSearch,
  "0004_structure": structure,
  "0005_courses": courses,
  "0006_social": social,
  "0007_events": events,
  "0008_title_search": titleSearch,
  "0009_catalogue": catalogue,
  "0010_money_accounts": moneyAccounts,
  "0011_fees_ledger": feesLedger,
  "0012_coupons": coupons,
  "0013_checkout": checkout,
  "0014_account_consent": accountConsent,
  "0015_money_bigint": moneyBigint,
  "0016_request_idempotency": requestIdempotency,
  "0017_selling_review": sellingReview,
  "0018_jobs": jobs,
  "0019_certificates": certificates,
  "0020_call4papers": call4papers,
  "0021_call4papers_submissions": call4papersSubmissions,
  "0023_payouts_reports": payoutsReports,
  "0022_subscriptions": subscriptions,
  "0024_oauth": oauth,
  "0025_gateways": gateways,
  "0026_subscription_charging": subscriptionCharging,
  "0027_operator_audit": operatorAudit,
  "0028_oauth_registration_windows": oauthRegistrationWindows,
  "0029_read_contracts": readContracts,
  "0030_subscription_request_keys_created": subscriptionRequestKeysCreated,
  "0031_subscription_scheduled_price": subscriptionScheduledPrice,
  "0032_call4papers_co_speaker_consent": call4papersCoSpeakerConsent,
  "0033_payout_destination": payoutDestination,
  "0034_blobs": blobs,
  "0035_instance_settings": instanceSettings,
  "0036_operator_audit_client_address": operatorAuditClientAddress,
  "0037_auth_sessions": authSessions,
  "0038_rate_limits": rateLimits,
  "0039_email_nfc": emailNfc,
  "0040_disputes_connect": disputesConnect,
  "0041_idempotency_rate_limit": idempotencyRateLimit,
  "0042_api_keys": apiKeys,
  "0043_webhooks": webhooks,
  "0044_webhook_event_retention": webhookEventRetention,
  "0045_subscription_pauses": subscriptionPauses,
  "0046_notifications": notifications,
  "0047_event_attendance": eventAttendance,
  "0048_moderation": moderation,
  "0049_member_suspensions": memberSuspensions,
  "0050_notification_emails": notificationEmails,
  "0051_space_summaries_module": spaceSummariesModule,
  "0052_member_bans": memberBans,
  "0053_held_content": heldContent,
  "0054_data_exports": dataExports,
  "0055_account_erasure": accountErasure,
  "0056_personal_data_indexes": personalDataIndexes,
  "0057_moderated_events": moderatedEvents,
  "0058_scale_indexes": scaleIndexes,
  "0059_profile_tag_counts": profileTagCounts,
  "0060_bounded_title_search": boundedTitleSearch,
  "0061_held_check": heldCheck,
  "0062_events_hidden_index": eventsHiddenIndex
}
