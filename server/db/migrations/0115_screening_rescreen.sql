-- 0115_screening_rescreen: what the rescreen job (server/screening/rescreen.ts) needs of 0110's tables.
-- - A rescreen writes each subject's screening once: a retried or second run of the same rescreen (a job lost with
--   its instance and queued again) adds no row twice.
-- - The rescreens waiting or running, found by the job engine's sweep.
CREATE UNIQUE INDEX screenings_rescreen_once ON screenings (rescreen_id, subject, subject_id)
  WHERE rescreen_id IS NOT NULL;
CREATE INDEX screening_rescreens_due ON screening_rescreens (state, id) WHERE state IN ('queued', 'running');
-- Why a waiting version was declined (the decliner's words; the audit chain keeps them too).
ALTER TABLE screening_list_versions
  ADD COLUMN decline_reason text CHECK (decline_reason IS NULL OR length(decline_reason) BETWEEN 3 AND 500);
