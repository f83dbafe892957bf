#!/bin/sh
# Sets up a Temporal cluster on PostgreSQL for this project. Safe to run again: each step skips what is done.
#   temporal-setup.sh schema     the main and visibility databases and their schemas (before the server starts)
#   temporal-setup.sh namespace  the namespace and our search attributes (once the server answers)
# docker-compose runs both in the temporalio/admin-tools image; the `cluster` test suite runs this same file with
# locally built tools. Needs temporal-sql-tool (schema) or the temporal CLI (namespace) on PATH.
set -eu

: "${POSTGRES_SEEDS:=127.0.0.1}"
: "${DB_PORT:=5432}"
: "${POSTGRES_USER:=temporal}"
: "${POSTGRES_PWD:=temporal}"
: "${DBNAME:=temporal}"
: "${VISIBILITY_DBNAME:=temporal_visibility}"
: "${TEMPORAL_ADDRESS:=127.0.0.1:7233}"
: "${TEMPORAL_NAMESPACE:=default}"
: "${TEMPORAL_NAMESPACE_RETENTION:=72h}"
# The search attributes the workflow upserts (src/contract/search-attributes.ts; a test keeps them equal).
: "${HITL_SEARCH_ATTRIBUTES:=HitlStatus=Keyword HitlPendingTools=KeywordList HitlPendingCount=Int HitlNextDeadline=Datetime HitlAgent=Keyword}"

sql() {
  temporal-sql-tool --plugin postgres12 --endpoint "$POSTGRES_SEEDS" --port "$DB_PORT" \
    --user "$POSTGRES_USER" --password "$POSTGRES_PWD" "$@"
}

# One database: created (the tool leaves an existing one as it is), versioning tables set up (idempotent), then
# updated to the schema this tool embeds (update-schema applies only the versions a database lacks).
database() {
  sql --database "$1" create-database
  sql --database "$1" setup-schema --version 0.0
  sql --database "$1" update-schema --schema-name "$2"
}

case "${1:-}" in
  schema)
    database "$DBNAME" postgresql/v12/temporal
    database "$VISIBILITY_DBNAME" postgresql/v12/visibility
    ;;
  namespace)
    waited=0
    until temporal operator cluster health --address "$TEMPORAL_ADDRESS" 2>/dev/null | grep -q SERVING; do
      waited=$((waited + 1))
      if [ "$waited" -ge 180 ]; then echo "Temporal at $TEMPORAL_ADDRESS did not answer within 3 minutes" >&2; exit 1; fi
      sleep 1
    done
    if ! temporal operator namespace describe --address "$TEMPORAL_ADDRESS" --namespace "$TEMPORAL_NAMESPACE" >/dev/null 2>&1; then
      temporal operator namespace create --address "$TEMPORAL_ADDRESS" --namespace "$TEMPORAL_NAMESPACE" \
        --retention "$TEMPORAL_NAMESPACE_RETENTION"
    fi
    # A new namespace reaches the server's namespace cache within about 10 s.
    waited=0
    until existing=$(temporal operator search-attribute list --address "$TEMPORAL_ADDRESS" --namespace "$TEMPORAL_NAMESPACE" 2>&1); do
      waited=$((waited + 1))
      if [ "$waited" -ge 60 ]; then echo "$existing" >&2; exit 1; fi
      sleep 1
    done
    for pair in $HITL_SEARCH_ATTRIBUTES; do
      if echo "$existing" | grep -qw "${pair%%=*}"; then echo "search attribute ${pair%%=*} exists"; continue; fi
      temporal operator search-attribute create --address "$TEMPORAL_ADDRESS" --namespace "$TEMPORAL_NAMESPACE" \
        --name "${pair%%=*}" --type "${pair##*=}"
    done
    ;;
  *)
    echo "usage: $0 schema|namespace" >&2
    exit 2
    ;;
esac
