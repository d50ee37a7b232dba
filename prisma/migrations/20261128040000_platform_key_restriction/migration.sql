-- A platform administrator's endpoint restriction gets a column of its own,
-- apart from the customer's choice, so the customer can narrow it but never
-- undo it. The key may call the plan's endpoints ∩ platform_endpoints (empty:
-- no restriction) ∩ allowed_endpoints (empty: everything the others allow).

ALTER TABLE "api_keys"
  ADD COLUMN "platform_endpoints" TEXT[] DEFAULT ARRAY[]::TEXT[],
  ADD COLUMN "platform_endpoints_reason" TEXT;

-- Until now both wrote allowed_endpoints, each change with its audit entry in
-- the same transaction (key.created and key.restricted, with the endpoints in
-- details; an administrator's as actor "platform administrator"). A rolled key
-- started with its old key's endpoints, so its history goes on back through
-- rolled_from_id, up to the moment of each roll.
--
-- For every key whose history holds an administrator's restriction, the
-- latest one becomes the platform's restriction again, even where the
-- customer undid it afterwards (that undoing is what this change closes); an
-- empty one was a lift, so it restricts nothing. If an administrator made the
-- last change, the customer's own choice is the last one the customer made
-- (none: every endpoint). Every other key keeps allowed_endpoints as the
-- customer's choice.
WITH RECURSIVE lineage (key_id, ancestor_id, until_at) AS (
  SELECT id, id, 'infinity'::timestamptz FROM "api_keys"
  UNION ALL
  SELECT l.key_id, a.rolled_from_id, a.created_at
  FROM lineage l JOIN "api_keys" a ON a.id = l.ancestor_id
  WHERE a.rolled_from_id IS NOT NULL
),
history AS (
  SELECT l.key_id,
         COALESCE(a.actor_label = 'platform administrator', false) AS by_platform,
         ARRAY(SELECT jsonb_array_elements_text(COALESCE(a.details -> 'endpoints', '[]'::jsonb))) AS endpoints,
         a.created_at,
         a.id
  FROM lineage l
  JOIN "audit_logs" a ON a.target_id = l.ancestor_id::text AND a.created_at <= l.until_at
  WHERE a.action IN ('key.created', 'key.restricted') AND jsonb_typeof(a.details -> 'endpoints') = 'array'
),
latest AS (
  SELECT DISTINCT ON (key_id) key_id, by_platform FROM history ORDER BY key_id, created_at DESC, id DESC
),
latest_platform AS (
  SELECT DISTINCT ON (key_id) key_id, endpoints FROM history WHERE by_platform ORDER BY key_id, created_at DESC, id DESC
),
latest_customer AS (
  SELECT DISTINCT ON (key_id) key_id, endpoints FROM history WHERE NOT by_platform ORDER BY key_id, created_at DESC, id DESC
)
UPDATE "api_keys" k SET
  "platform_endpoints" = p.endpoints,
  "platform_endpoints_reason" = CASE WHEN cardinality(p.endpoints) > 0 THEN 'Restricted by a platform administrator (no reason was recorded then).' END,
  "allowed_endpoints" = CASE WHEN l.by_platform THEN COALESCE(c.endpoints, ARRAY[]::TEXT[]) ELSE k."allowed_endpoints" END
FROM latest_platform p
JOIN latest l ON l.key_id = p.key_id
LEFT JOIN latest_customer c ON c.key_id = p.key_id
WHERE k.id = p.key_id;
