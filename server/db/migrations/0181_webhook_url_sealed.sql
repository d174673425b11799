-- 0181_webhook_url_sealed: a Slack or Teams endpoint's URL is its credential (whoever has it posts to the channel),
-- so it is sealed as the endpoint's secret is (server/notifications/webhook-url.ts): url keeps only its scheme and
-- host ("https://hooks.slack.com/…"), url_sealed the whole URL, url_fingerprint the first 8 hex of its SHA-256.
-- Rows added before this keep their URL in url until the notification jobs start and seal it (the key is not the
-- database's to use); a standard endpoint's URL is an address, not a credential, and stays in url.
ALTER TABLE webhook_endpoints ADD COLUMN url_sealed text;
ALTER TABLE webhook_endpoints ADD COLUMN url_fingerprint text CHECK (url_fingerprint ~ '^[0-9a-f]{8}$');
