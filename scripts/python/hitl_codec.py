"""The payload codec of an encrypting deployment (HITL_ENCRYPTION_KEYS), for Python clients.

    from hitl_codec import data_converter_from_env
    client = await Client.connect("localhost:7233", data_converter=data_converter_from_env())

It reads and writes exactly what src/codec/aes-gcm-codec.ts does: each payload serialized, sealed with AES-256-GCM
under a 12-byte random nonce (nonce, ciphertext, 16-byte tag), in a payload whose metadata says `binary/encrypted`
and names the key id. The keys come from the same settings as the workers': HITL_ENCRYPTION_KEYS (JSON, key id to
32 base64 bytes) or HITL_ENCRYPTION_KEYS_FILE, and HITL_ENCRYPTION_KEY_ID for the key new payloads take when there
are several. Without them, the default converter: a deployment that does not encrypt.
"""

import base64
import dataclasses
import json
import os
from typing import Iterable, List

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from temporalio.api.common.v1 import Payload
from temporalio.converter import DataConverter, PayloadCodec

ENCRYPTED_ENCODING = b"binary/encrypted"
KEY_ID_METADATA = "encryption-key-id"
NONCE_BYTES = 12


class KeysError(ValueError):
    """The encryption settings cannot be used: said in the words the workers use."""


class HitlEncryptionCodec(PayloadCodec):
    def __init__(self, keys: dict, current_id: str) -> None:
        self._keys = {key_id: AESGCM(key) for key_id, key in keys.items()}
        self._current_id = current_id

    async def encode(self, payloads: Iterable[Payload]) -> List[Payload]:
        sealer = self._keys[self._current_id]
        out = []
        for payload in payloads:
            nonce = os.urandom(NONCE_BYTES)
            sealed = nonce + sealer.encrypt(nonce, payload.SerializeToString(), None)
            metadata = {"encoding": ENCRYPTED_ENCODING, KEY_ID_METADATA: self._current_id.encode()}
            out.append(Payload(metadata=metadata, data=sealed))
        return out

    async def decode(self, payloads: Iterable[Payload]) -> List[Payload]:
        out = []
        for payload in payloads:
            if payload.metadata.get("encoding") != ENCRYPTED_ENCODING:
                out.append(payload)
                continue
            key_id = payload.metadata.get(KEY_ID_METADATA, b"").decode()
            opener = self._keys.get(key_id)
            if opener is None:
                raise KeysError(f'Cannot decrypt a payload: key "{key_id}" is not configured (HITL_ENCRYPTION_KEYS).')
            try:
                plain = opener.decrypt(payload.data[:NONCE_BYTES], payload.data[NONCE_BYTES:], None)
            except InvalidTag:
                # The library's error has no words at all; the likely cause is another key under the same id.
                raise KeysError(
                    f'Cannot decrypt a payload: the key configured as "{key_id}" does not open it '
                    "(HITL_ENCRYPTION_KEYS holds another key under that id, or the payload was altered)."
                ) from None
            out.append(Payload.FromString(plain))
        return out


def codec_from_env(env=os.environ):
    """The codec the settings describe, or None when they name no keys."""
    inline, file = env.get("HITL_ENCRYPTION_KEYS"), env.get("HITL_ENCRYPTION_KEYS_FILE")
    if not inline and not file:
        return None
    try:
        text = inline if inline else open(file, encoding="utf-8").read()
        raw = json.loads(text)
    except (OSError, ValueError) as err:
        raise KeysError(f"HITL_ENCRYPTION_KEYS cannot be read: {err}") from None
    if not isinstance(raw, dict) or not raw:
        raise KeysError("HITL_ENCRYPTION_KEYS: configure at least one key, as {\"<key id>\": \"<base64 of 32 bytes>\"}")
    keys = {}
    for key_id, value in raw.items():
        try:
            key = base64.b64decode(value, validate=True) if isinstance(value, str) else b""
        except ValueError:
            key = b""
        if len(key) != 32:
            raise KeysError(f'HITL_ENCRYPTION_KEYS: key "{key_id}" must be 32 bytes, base64-encoded')
        keys[key_id] = key
    current_id = env.get("HITL_ENCRYPTION_KEY_ID") or (next(iter(keys)) if len(keys) == 1 else None)
    if current_id not in keys:
        raise KeysError(f"Set HITL_ENCRYPTION_KEY_ID to the key that encrypts new payloads (one of: {', '.join(keys)}).")
    return HitlEncryptionCodec(keys, current_id)


def data_converter_from_env(env=os.environ) -> DataConverter:
    """The default converter, with the deployment's codec when the settings name keys."""
    codec = codec_from_env(env)
    return dataclasses.replace(DataConverter.default, payload_codec=codec) if codec else DataConverter.default
