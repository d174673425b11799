-- The audit log filtered by sub-account: every entry about one sub-account, newest first, indexed. Which
-- sub-account an entry is about is said by its target (subaccount:<uid>, "bind <uid> → …",
-- platform-key:sub<uid>) or, for a call made for one (a platform read, a withdrawal request), by its params
-- (subUid, uid). An approval, a rejection or a reconcile names the withdrawal only (withdrawal:<id>): the
-- query finds those through withdrawal_requests, on the target index below.
CREATE FUNCTION audit_subaccount(target text, params jsonb) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  RETURN COALESCE(
    substring(target FROM '^subaccount:([0-9]{1,20})$'),
    substring(target FROM '^(?:bind|unbind) ([0-9]{1,20}) '),
    substring(target FROM '^platform-key:sub([0-9]{1,20})$'),
    CASE WHEN jsonb_typeof(params) = 'object' THEN COALESCE(params ->> 'subUid', params ->> 'uid') END
  );

CREATE INDEX audit_log_subaccount_id ON audit_log (audit_subaccount(target, params), id DESC);
CREATE INDEX audit_log_target_id ON audit_log (target, id DESC);
