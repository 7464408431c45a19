#!/usr/bin/env bash
# Signs a request as kevy's webhook bridge does (Standard Webhooks, v1 = HMAC-SHA256) and POSTs it with curl.
#   WEBHOOK_SECRET=whsec_... ./send-signed.sh URL [BODY] [ID]
# Prints the HTTP status. Needs bash, base64, od, openssl and curl.
set -euo pipefail
url="$1"
default='{"type":"io.kevy.changes","timestamp":"2026-01-05T10:00:00Z","data":{"count":0,"events":[]}}'
body="${2:-$default}"
id="${3:-test-$(date +%s%N)}"
ts="$(date +%s)"
# the HMAC key is the Base64 after whsec_, as hex for openssl
key="$(printf '%s' "${WEBHOOK_SECRET#whsec_}" | base64 -d | od -An -v -tx1 | tr -d ' \n')"
sig="$(printf '%s.%s.%s' "$id" "$ts" "$body" | openssl dgst -sha256 -mac HMAC -macopt "hexkey:$key" -binary | base64)"
curl -s -o /dev/null -w '%{http_code}\n' -X POST "$url" \
  -H 'content-type: application/json' -H "webhook-id: $id" -H "webhook-timestamp: $ts" \
  -H "webhook-signature: v1,$sig" --data-binary "$body"
