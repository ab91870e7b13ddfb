-- The cluster fence (PostgreSQL only, migrations/postgres/0020) checks game-log appends once per
-- statement. A SQLite server is always a single node: nothing changes here (the number is kept in step).
SELECT 1;
