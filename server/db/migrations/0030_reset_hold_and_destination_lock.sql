-- An admin's reset of someone's second factors puts the account on approver hold, as an admin-set password
-- does: whoever enrols the next factor controls the account, so it may not approve (nor decide an address
-- book entry) until a cool-off has passed and its holder has been told at a page they opened.
ALTER TABLE staff_users DROP CONSTRAINT IF EXISTS staff_users_approver_hold_check;
ALTER TABLE staff_users ADD CONSTRAINT staff_users_approver_hold_check
  CHECK (approver_hold IN ('created-by-admin', 'promoted-by-admin', 'password-set-by-admin', 'factors-reset-by-admin'));

-- An approved address-book entry counts as "in the book" only from usable_from (its approval plus the
-- configured lock, DESTINATION_LOCK_HOURS): someone who got an entry approved cannot use it at once.
-- Entries approved before this migration were usable already.
ALTER TABLE withdrawal_destinations ADD COLUMN usable_from timestamptz;
UPDATE withdrawal_destinations SET usable_from = decided_at WHERE state = 'approved';
ALTER TABLE withdrawal_destinations ADD CONSTRAINT destination_approved_has_usable_from
  CHECK (state <> 'approved' OR usable_from IS NOT NULL);
