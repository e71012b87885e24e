-- The client address of every console audit entry (issue 41): a flood of failed sign-ins names where it came from,
-- and an operator's actions where they were taken. Entries written before, or by a release that does not know the
-- column, have none ('').
ALTER TABLE console_audit ADD COLUMN address text NOT NULL DEFAULT '';
