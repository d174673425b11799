-- An export's audit outcome records the SHA-256 of the file sent (detail.sha256, server/audit/export-seal.ts):
-- `npm run audit:which -- <file>` looks a file up by it.
CREATE INDEX audit_log_export_sha256 ON audit_log ((detail ->> 'sha256')) WHERE detail ? 'sha256';
