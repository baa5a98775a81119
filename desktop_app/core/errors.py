"""The one exception tree of LexMem.

Every error the engine, the LLM layer or the chat pipeline raises on purpose derives from
:class:`LexMemError`. Each carries ``user_message``: a sentence a lawyer understands (Chinese
first, English after), which the UI shows as is; ``str(exc)`` stays technical for the log.

    LexMemError
    ├── InvalidInputError         bad text, bad arguments, malformed import lines
    ├── DocumentImportError       a case document could not be imported (``reason``)
    ├── NotFoundError
    │   ├── NoteNotFoundError
    │   ├── DocumentNotFoundError
    │   └── CaseNotFoundError
    ├── StorageError              SQLite / LanceDB trouble
    │   ├── DataFolderLockedError  another LexMem is writing to the same folder
    │   ├── DataFolderNotPrivateError  the folder is shared or belongs to someone else
    │   ├── ReadOnlyFolderError    the folder (or its disk) cannot be written
    │   ├── DiskFullError          no space left: nothing of the failed change was kept
    │   └── CorruptDatabaseError   SQLite file damaged: restore from a backup
    │       └── MissingDatabaseError  the database is gone while its index or backups remain
    ├── SecretStoreError          no usable OS keyring
    └── LLMError                  anything from the model endpoint
        ├── ProviderNotConfiguredError  no model provider set up yet
        ├── AuthenticationError   wrong or missing API key (401/403)
        ├── EndpointUnreachableError  network down, wrong base URL, timeout
        ├── ModelNotFoundError    the model name does not exist on the endpoint
        ├── RateLimitedError      429 (``retry_after`` seconds, if the server said)
        ├── ProxyConfigError      the proxy setting cannot work (SOCKS without socksio, bad URL)
        └── BadResponseError      malformed JSON, schema mismatch, cut stream, 5xx
            ├── InvalidAnswerError    the structured answer is unusable (also a ValueError)
            │   └── SchemaValidationError  it does not match the schema (``errors``)
            ├── TruncatedResponseError  the token budget cut the answer off
            ├── ConnectionLostError     the connection broke in the middle of a streamed reply
            └── RequestRejectedError    HTTP 400 that no fallback can fix
                └── ContextTooLongError   the prompt is longer than the model's context

Warnings are not errors: nothing failed, but the user should know. They carry a
``user_message`` too and are handed to the UI as values (``LLMClient.warnings``), not raised.

    LexMemWarning
    └── PlaintextKeyWarning       the API key would travel unencrypted to a non-local host
"""

from __future__ import annotations

import errno
import os


class LexMemError(Exception):
    """Base of every deliberate LexMem error."""

    default_user_message = "出现了一个错误。 / Something went wrong."

    def __init__(self, message: str = "", *, user_message: str | None = None) -> None:
        super().__init__(message or self.default_user_message)
        self.user_message = user_message or self.default_user_message


class InvalidInputError(LexMemError):
    default_user_message = "输入无效。 / The input is not valid."


class DocumentImportError(LexMemError):
    """A case document could not be imported; nothing of it was kept.  ``reason`` is one of
    DOCUMENT_IMPORT_REASONS (the UI words it); the message never quotes the file's text."""

    default_user_message = "文件无法导入。 / The file could not be imported."

    def __init__(self, reason: str, message: str = "", *, user_message: str | None = None):
        if reason not in DOCUMENT_IMPORT_REASONS:
            raise ValueError(f"unknown import failure reason {reason!r}")
        super().__init__(
            message or reason, user_message=user_message or _IMPORT_MESSAGES.get(reason)
        )
        self.reason = reason


#: why an import failed: 0-byte or textless file, password-protected PDF, damaged file,
#: unknown kind, too big, cancelled by the user, an image or scan without readable text,
#: the OCR missing from the installation (an image or a scan cannot be read at all)
DOCUMENT_IMPORT_REASONS = (
    "empty",
    "encrypted",
    "corrupt",
    "unsupported",
    "too_large",
    "cancelled",
    "no_text",
    "ocr_unavailable",
)
#: the CLI's wording of each reason (the UI words them through its own translations)
_IMPORT_MESSAGES = {
    "empty": "文件是空的，没有可导入的文字。 / The file is empty: there is no text to import.",
    "encrypted": "这个 PDF 有密码保护，请先去掉密码再导入。 / "
    "This PDF is password-protected; remove the password, then import it.",
    "corrupt": "文件已损坏或格式不对，无法读取。 / The file is damaged or not in its format.",
    "unsupported": "不支持这种文件：请用 PDF、Word（.docx）、PNG/JPG 图片或 TXT/Markdown。 / "
    "Unsupported file: use PDF, Word (.docx), PNG/JPG images or TXT/Markdown.",
    "too_large": "文件太大，无法导入。 / The file is too large to import.",
    "cancelled": "导入已取消，没有保留任何内容。 / Import cancelled; nothing was kept.",
    "no_text": "没有识别出文字（图片或扫描件中没有可读的文字）。 / "
    "No readable text was found in the image or scan.",
    "ocr_unavailable": "文字识别（OCR）不可用，无法读取图片或扫描件。 / "
    "Text recognition (OCR) is not available: images and scans cannot be read.",
}


class NotFoundError(LexMemError):
    default_user_message = "找不到该条目。 / The item was not found."


class NoteNotFoundError(NotFoundError):
    default_user_message = "找不到这条记忆（可能已被删除）。 / The memory note was not found (it may have been deleted)."


class DocumentNotFoundError(NotFoundError):
    default_user_message = "找不到这份文件。 / Document not found."


class CaseNotFoundError(NotFoundError):
    default_user_message = "找不到该案件。 / The case was not found."


class StorageError(LexMemError):
    default_user_message = "读写本地数据时出错。 / Reading or writing local data failed."


class DataFolderLockedError(StorageError):
    default_user_message = (
        "另一个 LexMem 正在使用这个数据文件夹，请先关闭它。 / "
        "Another LexMem is already using this data folder; close it first."
    )


class CorruptDatabaseError(StorageError):
    default_user_message = "数据库文件已损坏，可以从备份恢复。 / The database file is damaged; restore it from a backup."


class MissingDatabaseError(CorruptDatabaseError):
    """The database file is missing (or empty) although the folder holds its index or
    backups: a new empty database would silently drop the index, so this is damage."""

    default_user_message = (
        "数据库文件不见了（或为空），但这个文件夹里还有索引或备份。请从备份恢复；"
        "LexMem 不会用空数据库覆盖它们。 / "
        "The database file is missing (or empty) while this folder still holds its index or "
        "backups. Restore it from a backup; LexMem will not replace them with an empty database."
    )


class DataFolderNotPrivateError(StorageError):
    default_user_message = (
        "这个数据文件夹是共享的或属于其他用户，案件资料不能放在这里；请选择一个只属于你的文件夹。 / "
        "This data folder is shared or belongs to another user; case files cannot be kept there. "
        "Choose a folder that is yours alone."
    )


class ReadOnlyFolderError(StorageError):
    default_user_message = (
        "数据文件夹不可写（只读或没有权限），什么也没有保存。 / "
        "The data folder cannot be written (read-only or no permission); nothing was saved."
    )


class DiskFullError(StorageError):
    default_user_message = (
        "磁盘空间已满，这次修改没有保存（之前的数据完好）。请腾出空间后重试。 / "
        "The disk is full: this change was not saved (everything saved before is intact). "
        "Free some space and try again."
    )


class SecretStoreError(LexMemError):
    default_user_message = (
        "系统密钥库不可用，API 密钥只在本次运行中保存。 / "
        "No system keyring is available; the API key is kept for this session only."
    )


class LLMError(LexMemError):
    default_user_message = "调用语言模型失败。 / The language model call failed."

    #: the endpoint's HTTP status, when it answered with one (kept in stored job errors,
    #: which keep no text: an endpoint may echo the key or the note in its message)
    http_status: int | None = None


class ProviderNotConfiguredError(LLMError):
    default_user_message = (
        "还没有连接模型服务。请在设置中选择服务商并填写 API 密钥（本地的 Ollama / LM Studio 不需要密钥）。 / "
        "No model provider is connected yet. Choose a provider and enter an API key in Settings "
        "(local Ollama / LM Studio need no key)."
    )


class AuthenticationError(LLMError):
    default_user_message = (
        "API 密钥错误或无权限，请在设置中检查密钥。 / "
        "The API key is wrong or lacks permission; check it in Settings."
    )


class EndpointUnreachableError(LLMError):
    default_user_message = (
        "无法连接到模型服务，请检查网络或服务地址。 / "
        "The model endpoint cannot be reached; check the network or the base URL."
    )


class ModelNotFoundError(LLMError):
    default_user_message = "模型不存在，请在设置中选择其他模型。 / The model does not exist; pick another one in Settings."


class RateLimitedError(LLMError):
    default_user_message = "请求过于频繁，请稍后再试。 / Rate limited; try again shortly."

    def __init__(
        self,
        message: str = "",
        *,
        user_message: str | None = None,
        retry_after: float | None = None,
    ) -> None:
        super().__init__(message, user_message=user_message)
        self.retry_after = retry_after


class BadResponseError(LLMError):
    default_user_message = (
        "模型返回了无法理解的结果，稍后会自动重试。 / "
        "The model returned something unusable; it will be retried."
    )


class ProxyConfigError(LLMError):
    default_user_message = (
        "代理设置无法使用，请在设置中检查代理（或选择不使用代理）。 / "
        "The proxy setting cannot be used; check it in Settings (or choose no proxy)."
    )


class InvalidAnswerError(BadResponseError, ValueError):
    """The model's structured answer cannot be used (no JSON, nested too deeply, wrong shape).

    Also a ``ValueError``, so the structured-output chain (and the steps' ``check`` hooks,
    which raise ``ValueError``) treat every invalid answer alike: retried once with the reason.
    """


class SchemaValidationError(InvalidAnswerError):
    """The JSON does not match the schema; ``errors`` lists every mismatch with its path and
    ``coercions`` what was repaired before (both end up in the job's error text)."""

    def __init__(self, errors: list[str], coercions: list[str] | tuple[str, ...] = ()) -> None:
        self.errors = list(errors)
        self.coercions = list(coercions)
        text = "; ".join(self.errors[:8]) + (" ..." if len(self.errors) > 8 else "")
        if self.coercions:
            text += " (coerced: " + "; ".join(self.coercions[:8]) + ")"
        super().__init__(text)


class TruncatedResponseError(BadResponseError):
    default_user_message = (
        "模型的回答太长，被截断了；稍后会自动重试。 / "
        "The model's answer was cut off (too long); it will be retried."
    )


class ConnectionLostError(BadResponseError):
    """The stream broke after part of the reply had arrived (the part is kept by the caller).

    Not an unusable answer: what came was fine, the connection went away (a dropped network,
    a proxy or a server restarting), so the user is told that and offered Retry."""

    default_user_message = (
        "与模型服务的连接在回答途中断开了；已收到的部分保留在上面，可以重试。 / "
        "The connection to the model broke during the answer; the part received is kept "
        "above. Retry to get the whole answer."
    )


class RequestRejectedError(BadResponseError):
    default_user_message = (
        "模型服务拒绝了这个请求（参数或内容不被接受）。 / "
        "The model endpoint rejected the request (a parameter or the content was not accepted)."
    )


class ContextTooLongError(RequestRejectedError):
    default_user_message = (
        "对话内容太长，超出了模型一次能读的长度；请开始新的对话或缩短内容。 / "
        "The conversation is longer than the model can read at once; start a new one or "
        "shorten it."
    )


class LexMemWarning(UserWarning):
    """Something the user should know although nothing failed; shown, never raised."""

    default_user_message = "请注意。 / Please note."

    def __init__(self, message: str = "", *, user_message: str | None = None) -> None:
        super().__init__(message or self.default_user_message)
        self.user_message = user_message or self.default_user_message


class PlaintextKeyWarning(LexMemWarning):
    default_user_message = (
        "该服务地址使用 http（未加密），API 密钥和案件内容将以明文经网络发送；"
        "请改用 https，或仅在本机 / 局域网使用 http。 / "
        "This endpoint uses plain http: the API key and the case text would travel "
        "unencrypted; use https, or plain http only on this computer or the local network."
    )


def error_summary(exc: BaseException) -> str:
    """What may be stored or logged about an error: its class and HTTP status — never its
    text, which may quote a note, a chat or the API key (an endpoint that echoes the key in
    its 401 message would otherwise write the key into the database and every backup)."""
    name = type(exc).__name__
    status = getattr(exc, "http_status", None)
    if status is None:
        status = getattr(exc, "status_code", None)
    return f"{name} (HTTP {status})" if isinstance(status, int) else name


def storage_os_error(exc: OSError, path: os.PathLike[str] | str) -> StorageError:
    """An OSError on the data folder as the error a lawyer can act on."""
    if exc.errno in (errno.ENOSPC, getattr(errno, "EDQUOT", errno.ENOSPC)):
        return DiskFullError(f"{path}: {exc}")
    if exc.errno in (errno.EROFS, errno.EACCES, errno.EPERM):
        return ReadOnlyFolderError(
            f"{path}: {exc}",
            user_message=f"{ReadOnlyFolderError.default_user_message}\n{path}",
        )
    return StorageError(f"{path}: {exc}")


def split_languages(message: str) -> tuple[str, str]:
    """The two halves of a "中文 / English" user message; the English half may quote the
    user's own (Chinese) words. A message that is not one: (message, message)."""
    at = message.find(" / ")
    while at != -1:  # the Chinese half may hold " / " itself ("本机 / 局域网")
        zh, en = message[:at].strip(), message[at + 3 :].strip()
        if _has_cjk(zh) and en[:1].isascii() and en[:1].isalnum():
            return zh, en
        at = message.find(" / ", at + 3)
    return message, message


def _has_cjk(text: str) -> bool:
    return any("\u4e00" <= ch <= "\u9fff" for ch in text)
