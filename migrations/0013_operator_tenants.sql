-- Operators scoped to tenants (docs/console.md, "Operators of some tenants"): an operator whose `tenants` lists some
-- sees and acts on those tenants' data only, viewers included; NULL, every operator made before, sees every tenant.
-- A release that does not know the column leaves it NULL.
ALTER TABLE operators ADD COLUMN tenants text[];
