<?xml version='1.0' encoding='utf-8'?>
<TS version="2.1" language="zh_CN" sourcelanguage="en">
<context>
    <name>AboutDialog</name>
    <message>
        <location filename="../../desktop_app/ui/about.py" line="31" />
        <source>About %1</source>
        <translation>关于 %1</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/about.py" line="53" />
        <source>Qt is used under the LGPL v3. Licences of all bundled components:</source>
        <translation>Qt 依据 LGPL v3 使用。所有随附组件的许可证：</translation>
    </message>
</context>
<context>
    <name>AddNoteDialog</name>
    <message>
        <location filename="../../desktop_app/ui/notes/add_dialog.py" line="27" />
        <source>Add memory</source>
        <translation>添加记忆</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/add_dialog.py" line="32" />
        <source>One fact, understandable on its own, e.g. “The hearing is on 15 July 2024 at 9:30.”</source>
        <translation>一条能独立理解的事实，例如“2024年7月15日上午9:30开庭。”</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/add_dialog.py" line="37" />
        <location filename="../../desktop_app/ui/notes/add_dialog.py" line="51" />
        <source>Automatic</source>
        <translation>自动</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/add_dialog.py" line="40" />
        <source>Category</source>
        <translation>类别</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/add_dialog.py" line="42" />
        <source>e.g. 2024-07-15 (when it happened)</source>
        <translation>例如 2024-07-15（事情发生的日期）</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/add_dialog.py" line="44" />
        <source>When the fact happened or takes effect, not when it was recorded; 2024-07-15, 2024-07 or July 15, 2024</source>
        <translation>事实发生或生效的日期，不是记录的日期；可写 2024-07-15、2024-07 或 2024年7月15日</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/add_dialog.py" line="49" />
        <source>Event date</source>
        <translation>事件日期</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/add_dialog.py" line="54" />
        <source>Whose assertion this is</source>
        <translation>这是谁的说法</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/add_dialog.py" line="55" />
        <source>Source</source>
        <translation>来源</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/add_dialog.py" line="57" />
        <source>comma-separated</source>
        <translation>用逗号分隔</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/add_dialog.py" line="58" />
        <source>Tags</source>
        <translation>标签</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/add_dialog.py" line="61" />
        <source>This case</source>
        <translation>本案</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/add_dialog.py" line="62" />
        <source>Global (all cases)</source>
        <translation>全局（所有案件）</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/add_dialog.py" line="63" />
        <source>Scope</source>
        <translation>范围</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/add_dialog.py" line="64" />
        <source>Always recall for this case</source>
        <translation>本案中始终召回</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/add_dialog.py" line="65" />
        <source>Pinned</source>
        <translation>置顶</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/add_dialog.py" line="69" />
        <source>Add</source>
        <translation>添加</translation>
    </message>
</context>
<context>
    <name>ChatView</name>
    <message>
        <location filename="../../desktop_app/ui/chat/view.py" line="234" />
        <source>New chat</source>
        <extracomment>a cited passage was clicked: (document id, passage id) the client whose warnings the user dismissed (shown again for a new client)</extracomment>
        <translation>新对话</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/chat/view.py" line="242" />
        <source>Loading the memory library…</source>
        <translation>正在加载记忆库…</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/chat/view.py" line="245" />
        <source>The memory library could not be opened.</source>
        <translation>无法打开记忆库。</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/chat/view.py" line="254" />
        <source>Load demo case</source>
        <translation>载入示例案件</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/chat/view.py" line="254" />
        <source>New case</source>
        <translation>新建案件</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/chat/view.py" line="266" />
        <source>No model is connected yet. Open Settings, choose a provider and enter its API key; local Ollama or LM Studio need no key. Notes and the graph already work.</source>
        <translation>尚未连接模型。请打开设置，选择服务商并填写 API 密钥；本机的 Ollama 或 LM Studio 无需密钥。记忆和图谱现在就能用。</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/chat/view.py" line="261" />
        <location filename="../../desktop_app/ui/chat/view.py" line="269" />
        <location filename="../../desktop_app/ui/chat/view.py" line="275" />
        <source>Open Settings</source>
        <translation>打开设置</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/chat/view.py" line="251" />
        <source>No case yet. Create one, or load the demo case (Zhang San's sales-contract dispute with an online shop over a faulty laptop) to look around.</source>
        <translation>还没有案件。新建一个，或载入示例案件（张三网购笔记本电脑屏幕花屏的买卖合同纠纷）先看看。</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/chat/view.py" line="275" />
        <source>Got it</source>
        <translation>知道了</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/chat/view.py" line="283" />
        <source>Ask anything about this case.
LexMem recalls the case's memories for every reply and learns from the conversation.</source>
        <translation>就本案提任何问题。
律记每次回答都会调取本案记忆，并从对话中学习。</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/chat/view.py" line="332" />
        <source>Memory on</source>
        <translation>记忆：开</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/chat/view.py" line="332" />
        <source>Memory off</source>
        <translation>记忆：关</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/chat/view.py" line="334" />
        <source>Memories are recalled and learned in this conversation. Click to turn memory off for privileged talk.</source>
        <translation>本对话会调取和写入记忆。涉及保密内容时，点击关闭记忆。</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/chat/view.py" line="336" />
        <source>Memory is off: nothing is recalled or learned in this conversation.</source>
        <translation>记忆已关闭：本对话既不调取也不写入记忆。</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/chat/view.py" line="451" />
        <source>Long message</source>
        <translation>消息过长</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/chat/view.py" line="453" />
        <source>This message is about %1 tokens; the model %2 reads about %3 at a time, together with the case's memories and its answer. It will probably be refused or cut.

Shorten it, or add the document to the memories instead (Memories › Add or Import). Send anyway?</source>
        <translation>这条消息约 %1 个 token；模型 %2 一次只能读约 %3 个 token（还要容纳本案记忆和回答），发送后很可能被拒绝或截断。

请删减后再发，或把这份材料添加到记忆中（记忆 › 添加或导入）。仍然发送吗？</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/chat/view.py" line="623" />
        <source>Memories used for this reply</source>
        <translation>本次回答用到的记忆</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/chat/view.py" line="628" />
        <source>Learned from this turn</source>
        <translation>本轮对话学到的内容</translation>
    </message>
</context>
<context>
    <name>Composer</name>
    <message>
        <location filename="../../desktop_app/ui/chat/composer.py" line="46" />
        <source>Ask about this case… (Enter to send, Shift+Enter for a new line)</source>
        <translation>就本案提问…（Enter 发送，Shift+Enter 换行）</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/chat/composer.py" line="78" />
        <source>Stop (Esc)</source>
        <translation>停止 (Esc)</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/chat/composer.py" line="83" />
        <source>Send (Enter)</source>
        <translation>发送 (Enter)</translation>
    </message>
</context>
<context>
    <name>ConflictDialog</name>
    <message>
        <location filename="../../desktop_app/ui/maintenance/conflict_dialog.py" line="30" />
        <source>Settle a conflict</source>
        <translation>处理冲突</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/maintenance/conflict_dialog.py" line="33" />
        <source>These two memories contradict each other. Which one holds? The other is expired and kept in history.</source>
        <translation>这两条记忆相互矛盾。哪一条成立？另一条将设为失效并保留在历史中。</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/maintenance/conflict_dialog.py" line="42" />
        <source>Both hold (they do not really contradict)</source>
        <translation>两条都成立（其实并不矛盾）</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/maintenance/conflict_dialog.py" line="48" />
        <source>Settle</source>
        <translation>确定</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/maintenance/conflict_dialog.py" line="50" />
        <source>Skip</source>
        <translation>跳过</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/maintenance/conflict_dialog.py" line="62" />
        <source>This one holds (%1)</source>
        <translation>这条成立（%1）</translation>
    </message>
</context>
<context>
    <name>Crash</name>
    <message>
        <location filename="../../desktop_app/ui/excepthook.py" line="60" />
        <source>Unexpected error</source>
        <translation>意外错误</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/excepthook.py" line="29" />
        <source>Something unexpected went wrong. Your data is safe; the details were written to the log file.</source>
        <extracomment>tests turn this off; offscreen runs never block on a dialog either</extracomment>
        <translation>发生了意外错误。您的数据是安全的，详细信息已写入日志文件。</translation>
    </message>
</context>
<context>
    <name>DeleteDocumentDialog</name>
    <message>
        <location filename="../../desktop_app/ui/documents/delete_dialog.py" line="31" />
        <source>Delete document</source>
        <translation>删除文件</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/documents/delete_dialog.py" line="36" />
        <source>Delete %1 for good? Its copy in the data folder and its passages are erased, from every backup too.</source>
        <translation>彻底删除“%1”？它在数据文件夹中的副本和全部段落都会被抹去，所有备份中的也一并删除。</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/documents/delete_dialog.py" line="45" />
        <source>Forget these memories drawn from it too (checked ones only):</source>
        <translation>同时遗忘从中提取的这些记忆（仅限勾选的）：</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/documents/delete_dialog.py" line="56" />
        <source>Check all</source>
        <translation>全选</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/documents/delete_dialog.py" line="57" />
        <source>Check none</source>
        <translation>全不选</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/documents/delete_dialog.py" line="64" />
        <source>Unchecked memories stay; they no longer point to a page.</source>
        <translation>未勾选的记忆会保留，但不再指向原文页码。</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/documents/delete_dialog.py" line="71" />
        <source>Delete</source>
        <translation>删除</translation>
    </message>
</context>
<context>
    <name>DetailPanel</name>
    <message>
        <location filename="../../desktop_app/ui/graph/detail.py" line="36" />
        <source>Edit in Notes</source>
        <extracomment>asynchronous alternative to the providers: ``loader(note_id, deliver)`` fetches off the UI thread and later calls ``deliver(note, history)`` on it</extracomment>
        <translation>在记忆中编辑</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/graph/detail.py" line="37" />
        <source>Focus</source>
        <translation>聚焦</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/graph/detail.py" line="66" />
        <source>Click a note to see its details.</source>
        <translation>点击一条记忆查看详情。</translation>
    </message>
</context>
<context>
    <name>Dialogs</name>
    <message>
        <location filename="../../desktop_app/ui/dialogs.py" line="56" />
        <source>Restart now</source>
        <extracomment>room a window title needs beside its text: the icon and the close / maximise buttons</extracomment>
        <translation>立即重启</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/dialogs.py" line="59" />
        <source>Later</source>
        <translation>稍后</translation>
    </message>
</context>
<context>
    <name>Documents</name>
    <message>
        <location filename="../../desktop_app/ui/documents/drops.py" line="32" />
        <source>Folders are not imported; drop the files themselves: %1</source>
        <translation>不能导入文件夹，请拖入其中的文件：%1</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/documents/drops.py" line="38" />
        <source>Not a type LexMem can import (PDF, Word .docx, PNG/JPG images, text, Markdown): %1</source>
        <translation>律记无法导入这些类型（支持 PDF、Word .docx、PNG/JPG 图片、文本、Markdown）：%1</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/documents/model.py" line="54" />
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/documents/model.py" line="55" />
        <source>Kind</source>
        <translation>类型</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/documents/model.py" line="56" />
        <source>Pages</source>
        <translation>页数</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/documents/model.py" line="57" />
        <source>Imported</source>
        <translation>导入时间</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/documents/model.py" line="58" />
        <source>Notes derived</source>
        <translation>提取的记忆</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/documents/model.py" line="59" />
        <source>Extraction</source>
        <translation>知识提取</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/documents/model.py" line="85" />
        <source>%1 passages</source>
        <translation>%1 个段落</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/documents/wording.py" line="41" />
        <source>Case documents (%1)</source>
        <translation>案件文件 (%1)</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/documents/wording.py" line="42" />
        <source>PDF (*.pdf)</source>
        <translation>PDF (*.pdf)</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/documents/wording.py" line="43" />
        <source>Word (*.docx)</source>
        <translation>Word (*.docx)</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/documents/wording.py" line="44" />
        <source>Images (*.png *.jpg *.jpeg)</source>
        <translation>图片 (*.png *.jpg *.jpeg)</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/documents/wording.py" line="45" />
        <source>Text and Markdown (*.txt *.md *.markdown)</source>
        <translation>文本和 Markdown (*.txt *.md *.markdown)</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/documents/wording.py" line="52" />
        <source>PDF</source>
        <translation>PDF</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/documents/wording.py" line="53" />
        <source>Word</source>
        <translation>Word</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/documents/wording.py" line="54" />
        <source>Image</source>
        <translation>图片</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/documents/wording.py" line="55" />
        <source>Text</source>
        <translation>文本</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/documents/wording.py" line="58" />
        <source>%1 (OCR)</source>
        <translation>%1（OCR识别）</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/documents/wording.py" line="65" />
        <source>Waiting for a model</source>
        <translation>等待模型</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/documents/wording.py" line="66" />
        <source>Extracting…</source>
        <translation>提取中…</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/documents/wording.py" line="67" />
        <source>Done</source>
        <translation>已完成</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/documents/wording.py" line="68" />
        <source>Failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/documents/wording.py" line="74" />
        <source>No knowledge extraction was asked for this document.</source>
        <translation>这份文件没有安排知识提取。</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/documents/wording.py" line="77" />
        <source>The facts in this document will be extracted as memories once a model is configured. Its passages are searchable already.</source>
        <translation>配置模型后，会从这份文件中提取事实存为记忆；它的段落现在已经可以检索。</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/documents/wording.py" line="82" />
        <source>A model is reading this document for facts, evidence and dates.</source>
        <translation>模型正在从这份文件中提取事实、证据和日期。</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/documents/wording.py" line="85" />
        <source>The facts found in this document are memories now.</source>
        <translation>从这份文件中找到的事实已存为记忆。</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/documents/wording.py" line="88" />
        <source>Knowledge extraction failed; its passages are still searchable.</source>
        <translation>知识提取失败；它的段落仍可检索。</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/documents/wording.py" line="96" />
        <source>Reading</source>
        <translation>读取</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/documents/wording.py" line="97" />
        <source>Recognising text (OCR)</source>
        <translation>文字识别（OCR）</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/documents/wording.py" line="98" />
        <source>Embedding</source>
        <translation>向量化</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/documents/wording.py" line="99" />
        <source>Indexing</source>
        <translation>建立索引</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/documents/wording.py" line="106" />
        <source>%1 · %2 %3 of %4</source>
        <translation>%1 · %2 %3/%4</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/documents/wording.py" line="113" />
        <source>%1 · %2…</source>
        <translation>%1 · %2…</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/documents/wording.py" line="123" />
        <source>Nothing of it was kept.</source>
        <translation>没有保留它的任何内容。</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/documents/wording.py" line="125" />
        <source>%1 is empty: there is no text in it to import.</source>
        <translation>“%1”是空的：里面没有可导入的文字。</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/documents/wording.py" line="128" />
        <source>%1 is protected by a password. Open it, save or print a copy without the password, and import that.</source>
        <translation>“%1”设有密码保护。请打开它，另存或打印一份不带密码的副本，再导入该副本。</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/documents/wording.py" line="133" />
        <source>%1 is damaged or not the kind of file its name says, and cannot be read.</source>
        <translation>“%1”已损坏，或并非其扩展名所示的文件类型，无法读取。</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/documents/wording.py" line="137" />
        <source>%1 is not a type LexMem can import. Supported: PDF, Word (.docx), images (PNG, JPG), text and Markdown.</source>
        <translation>律记无法导入“%1”这种类型。支持：PDF、Word（.docx）、图片（PNG、JPG）、文本和 Markdown。</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/documents/wording.py" line="142" />
        <source>%1 is too large to import.</source>
        <translation>“%1”太大，无法导入。</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/documents/wording.py" line="143" />
        <source>The import of %1 was cancelled.</source>
        <translation>已取消导入“%1”。</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/documents/wording.py" line="144" />
        <source>%1 needs text recognition (OCR), which is missing from this installation. Reinstall LexMem, or import a PDF with a text layer.</source>
        <translation>“%1”需要文字识别（OCR），但本机安装中缺少该组件。请重新安装律记，或导入带文字层的 PDF。</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/documents/wording.py" line="149" />
        <source>No readable text was found in %1 (a blank image or an unreadable scan).</source>
        <translation>在“%1”中没有找到可识别的文字（空白图片或无法识别的扫描件）。</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/documents/wording.py" line="153" />
        <location filename="../../desktop_app/ui/documents/wording.py" line="157" />
        <location filename="../../desktop_app/ui/documents/wording.py" line="160" />
        <source>%1 could not be imported.</source>
        <translation>“%1”无法导入。</translation>
    </message>
</context>
<context>
    <name>DocumentsView</name>
    <message>
        <location filename="../../desktop_app/ui/documents/view.py" line="66" />
        <source>Open</source>
        <translation>打开</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/documents/view.py" line="67" />
        <source>Show the document's pages and passages</source>
        <translation>查看文件的页面和段落</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/documents/view.py" line="69" />
        <source>Delete…</source>
        <translation>删除…</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/documents/view.py" line="71" />
        <source>Evidence list…</source>
        <translation>证据目录…</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/documents/view.py" line="73" />
        <source>Arrange the case's evidence and export it as a Word document (证据目录)</source>
        <translation>排列本案证据并导出为 Word 文件（证据目录）</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/documents/view.py" line="76" />
        <source>Import…</source>
        <translation>导入…</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/documents/view.py" line="80" />
        <source>Import PDF, Word, images, text or Markdown into this case (or drop files on the window)</source>
        <translation>把 PDF、Word、图片、文本或 Markdown 导入本案（也可以把文件拖到窗口上）</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/documents/view.py" line="119" />
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/documents/view.py" line="183" />
        <source>Choose or create a case to import its documents.</source>
        <translation>请选择或新建一个案件，再导入它的文件。</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/documents/view.py" line="188" />
        <source>No documents in this case yet.
Import the complaint, contracts, invoices or screenshots (PDF, Word, PNG/JPG, text), or drop the files on this window. Their text becomes searchable passages the chat cites.</source>
        <translation>本案还没有文件。
导入起诉状、合同、发票或截图（PDF、Word、PNG/JPG、文本），或把文件拖到这个窗口上。其中的文字会成为可检索、可在对话中引用的段落。</translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_app/ui/documents/view.py" line="193" />
        <source>%n documents</source>
        <translation><numerusform>%n 份文件</numerusform></translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/documents/view.py" line="211" />
        <location filename="../../desktop_app/ui/documents/view.py" line="250" />
        <source>Import documents</source>
        <translation>导入文件</translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_app/ui/documents/view.py" line="231" />
        <source>(%n more waiting)</source>
        <translation><numerusform>（还有 %n 个等待中）</numerusform></translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/documents/view.py" line="242" />
        <source>Imported %1: %2 passages.</source>
        <translation>已导入“%1”：%2 个段落。</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/documents/view.py" line="254" />
        <source>The import of %1 was cancelled; nothing of it was kept.</source>
        <translation>已取消导入“%1”，没有保留任何内容。</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/documents/view.py" line="299" />
        <source>Deleted %1.</source>
        <translation>已删除“%1”。</translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_app/ui/documents/view.py" line="300" />
        <source>%n memories forgotten.</source>
        <translation><numerusform>已遗忘 %n 条记忆。</numerusform></translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/documents/view.py" line="327" />
        <source>Documents</source>
        <translation>文件</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/documents/view.py" line="330" />
        <source>The documents could not be read or changed.</source>
        <translation>无法读取或修改文件。</translation>
    </message>
</context>
<context>
    <name>Evidence</name>
    <message>
        <location filename="../../desktop_app/ui/evidence/model.py" line="36" />
        <source>%1, page %2</source>
        <translation>%1 第%2页</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/evidence/model.py" line="70" />
        <source>(purpose not stated)</source>
        <extracomment>the order changed by the lawyer (a drag or a move): the dialog stores it</extracomment>
        <translation>（未写明证明目的）</translation>
    </message>
</context>
<context>
    <name>EvidenceDialog</name>
    <message>
        <location filename="../../desktop_app/ui/evidence/dialog.py" line="53" />
        <location filename="../../desktop_app/ui/evidence/dialog.py" line="57" />
        <location filename="../../desktop_app/ui/evidence/dialog.py" line="226" />
        <location filename="../../desktop_app/ui/evidence/dialog.py" line="238" />
        <source>Evidence list</source>
        <extracomment>characters a file name cannot hold on Windows (and "/" anywhere)</extracomment>
        <translation>证据目录</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/evidence/dialog.py" line="62" />
        <source>Drag the evidence into the order you will submit it, or use Move up / Move down. The order is kept for this case. The list holds the case's memories of the category Evidence.</source>
        <translation>把证据拖成提交时的顺序，或用“上移”“下移”调整；顺序会为本案保存。列表中是本案类别为“证据”的记忆。</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/evidence/dialog.py" line="84" />
        <source>This case has no evidence yet. Memories of the category Evidence appear here.</source>
        <translation>本案还没有证据。类别为“证据”的记忆会显示在这里。</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/evidence/dialog.py" line="97" />
        <source>Move up</source>
        <translation>上移</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/evidence/dialog.py" line="98" />
        <source>Move down</source>
        <translation>下移</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/evidence/dialog.py" line="108" />
        <source>Export Word…</source>
        <translation>导出 Word…</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/evidence/dialog.py" line="137" />
        <source>Evidence list · %1</source>
        <translation>证据目录 · %1</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/evidence/dialog.py" line="192" />
        <source>Export the evidence list</source>
        <translation>导出证据目录</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/evidence/dialog.py" line="194" />
        <source>Word document (*.docx)</source>
        <translation>Word 文档 (*.docx)</translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_app/ui/evidence/dialog.py" line="215" />
        <source>Exported %n pieces of evidence to %1.</source>
        <translation><numerusform>已将 %n 项证据导出到 %1。</numerusform></translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/evidence/dialog.py" line="227" />
        <source>The evidence list could not be written to %1 (%2).</source>
        <translation>无法把证据目录写入 %1（%2）。</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/evidence/dialog.py" line="241" />
        <source>The evidence list could not be read or saved.</source>
        <translation>无法读取或保存证据目录。</translation>
    </message>
</context>
<context>
    <name>Files</name>
    <message>
        <location filename="../../desktop_app/ui/file_errors.py" line="14" />
        <source>no permission to write there</source>
        <translation>没有写入该位置的权限</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/file_errors.py" line="16" />
        <source>the disk is full</source>
        <translation>磁盘已满</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/file_errors.py" line="18" />
        <source>the folder does not exist</source>
        <translation>文件夹不存在</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/file_errors.py" line="20" />
        <source>the file name is too long</source>
        <translation>文件名太长</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/file_errors.py" line="21" />
        <source>the system refused it</source>
        <translation>系统拒绝了该操作</translation>
    </message>
</context>
<context>
    <name>GraphControls</name>
    <message>
        <location filename="../../desktop_app/ui/graph/controls.py" line="52" />
        <source>Search notes…</source>
        <translation>搜索图谱中的记忆…</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/graph/controls.py" line="67" />
        <source>Show or hide this category</source>
        <translation>显示或隐藏此类别</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/graph/controls.py" line="73" />
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/graph/controls.py" line="74" />
        <source>Links</source>
        <translation>关联</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/graph/controls.py" line="77" />
        <source>Whole map</source>
        <translation>全图</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/graph/controls.py" line="78" />
        <source>Focus: 1 hop</source>
        <translation>聚焦：1 跳</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/graph/controls.py" line="79" />
        <source>Focus: 2 hops</source>
        <translation>聚焦：2 跳</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/graph/controls.py" line="80" />
        <source>Show only the selected note's neighbourhood</source>
        <translation>只显示所选记忆的相邻记忆</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/graph/controls.py" line="86" />
        <source>Size: links</source>
        <translation>大小：按关联数</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/graph/controls.py" line="87" />
        <source>Size: retrievals</source>
        <translation>大小：按调取次数</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/graph/controls.py" line="93" />
        <source>Group: category</source>
        <translation>分组：类别</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/graph/controls.py" line="94" />
        <source>Group: month</source>
        <translation>分组：月份</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/graph/controls.py" line="95" />
        <source>How the notes without links are grouped</source>
        <translation>未关联的记忆按什么分组</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/graph/controls.py" line="100" />
        <source>Fit</source>
        <translation>适应窗口</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/graph/controls.py" line="101" />
        <source>Re-layout</source>
        <translation>重新布局</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/graph/controls.py" line="103" />
        <source>Export</source>
        <translation>导出</translation>
    </message>
</context>
<context>
    <name>GraphDetail</name>
    <message>
        <location filename="../../desktop_app/ui/graph/text.py" line="48" />
        <source>Open conflict</source>
        <translation>有冲突</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/graph/text.py" line="96" />
        <source>1 link</source>
        <translation>1 条关联</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/graph/text.py" line="97" />
        <source>%n links</source>
        <translation>%n 条关联</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/graph/text.py" line="102" />
        <source>recalled once</source>
        <translation>被调取 1 次</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/graph/text.py" line="103" />
        <source>recalled %n times</source>
        <translation>被调取 %n 次</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/graph/text.py" line="116" />
        <source>Keywords</source>
        <translation>关键词</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/graph/text.py" line="117" />
        <source>Tags</source>
        <translation>标签</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/graph/text.py" line="118" />
        <source>Context</source>
        <translation>背景</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/graph/text.py" line="119" />
        <source>History</source>
        <translation>历史</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/graph/text.py" line="131" />
        <source>Double-click the note on the map to edit it.</source>
        <translation>在图上双击该记忆即可编辑。</translation>
    </message>
</context>
<context>
    <name>GraphTab</name>
    <message>
        <location filename="../../desktop_app/ui/graph_tab.py" line="31" />
        <source>The memory graph will appear here.</source>
        <translation>记忆图谱将显示在这里。</translation>
    </message>
</context>
<context>
    <name>GraphView</name>
    <message>
        <location filename="../../desktop_app/ui/graph/view.py" line="345" />
        <source>Export graph</source>
        <translation>导出图谱</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/graph/view.py" line="356" />
        <source>No notes in this case yet.</source>
        <translation>本案还没有记忆。</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/graph/view.py" line="360" />
        <source>{n} notes · {e} links</source>
        <translation>{n} 条记忆 · {e} 条关联</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/graph/view.py" line="364" />
        <source>{n} notes, {c} of them current · {e} links</source>
        <translation>{n} 条记忆（其中 {c} 条有效）· {e} 条关联</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/graph/view.py" line="368" />
        <source>laying out…</source>
        <translation>正在布局…</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/graph/text.py" line="21" />
        <source>%1 · not linked (%2)</source>
        <translation>%1 · 未关联（%2）</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/graph/text.py" line="30" />
        <source>No date</source>
        <translation>无日期</translation>
    </message>
</context>
<context>
    <name>History</name>
    <message>
        <location filename="../../desktop_app/ui/history_text.py" line="48" />
        <source>Edited by hand</source>
        <translation>手动修改</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/history_text.py" line="49" />
        <source>Refined as new memories came in</source>
        <translation>随新记忆自动完善</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/history_text.py" line="50" />
        <source>A newer wording was merged in</source>
        <translation>并入了更新的表述</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/history_text.py" line="51" />
        <source>Organised by the model</source>
        <translation>由模型整理</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/history_text.py" line="52" />
        <source>Changed on import</source>
        <translation>导入时修改</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/history_text.py" line="53" />
        <location filename="../../desktop_app/ui/history_text.py" line="63" />
        <source>Changed</source>
        <translation>修改</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/history_text.py" line="55" />
        <source>Recorded this memory</source>
        <translation>记下了这条记忆</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/history_text.py" line="56" />
        <source>Undid the last change</source>
        <translation>撤销了上一次修改</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/history_text.py" line="57" />
        <source>Replaced by a newer memory</source>
        <translation>被更新的记忆取代</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/history_text.py" line="58" />
        <location filename="../../desktop_app/ui/history_text.py" line="59" />
        <source>Expired</source>
        <translation>已失效</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/history_text.py" line="60" />
        <source>Restored</source>
        <translation>已恢复</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/history_text.py" line="61" />
        <source>Conflict settled</source>
        <translation>冲突已处理</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/history_text.py" line="62" />
        <source>Merged with other memories</source>
        <translation>合并了其他记忆</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/history_text.py" line="97" />
        <source>Category</source>
        <translation>类别</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/history_text.py" line="99" />
        <source>State</source>
        <translation>状态</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/history_text.py" line="101" />
        <source>Event date</source>
        <translation>事件日期</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/history_text.py" line="103" />
        <source>Source</source>
        <translation>来源</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/history_text.py" line="105" />
        <source>Pinned</source>
        <translation>置顶</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/history_text.py" line="105" />
        <source>Unpinned</source>
        <translation>取消置顶</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/history_text.py" line="107" />
        <source>Keywords</source>
        <translation>关键词</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/history_text.py" line="109" />
        <source>Tags</source>
        <translation>标签</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/history_text.py" line="111" />
        <source>Background note rewritten</source>
        <translation>背景说明已改写</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/history_text.py" line="120" />
        <source>Merged into another memory</source>
        <translation>已合并到另一条记忆</translation>
    </message>
</context>
<context>
    <name>Links</name>
    <message>
        <location filename="../../desktop_app/ui/safe_text.py" line="51" />
        <source>Open this address in your web browser?

%1</source>
        <extracomment>the only schemes a link in untrusted text may open (file:, javascript:, data: never)</extracomment>
        <translation>在浏览器中打开这个地址？

%1</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/safe_text.py" line="54" />
        <source>Open link</source>
        <translation>打开链接</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <location filename="../../desktop_app/ui/main_window.py" line="52" />
        <source>Chat</source>
        <translation>对话</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/main_window.py" line="53" />
        <source>Notes</source>
        <translation>记忆</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/main_window.py" line="54" />
        <source>Graph</source>
        <translation>图谱</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/main_window.py" line="56" />
        <source>Documents</source>
        <translation>文件</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/main_window.py" line="111" />
        <source>New chat</source>
        <translation>新对话</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/main_window.py" line="123" />
        <source>About LexMem</source>
        <translation>关于律记</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/main_window.py" line="138" />
        <source>The memory library could not be opened. The details are in the log file.</source>
        <translation>无法打开记忆库，详情已写入日志文件。</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/main_window.py" line="153" />
        <source>%1

Restore the backup of %2? The damaged file is kept aside.</source>
        <translation>%1

要恢复 %2 的备份吗？损坏的文件会另存保留。</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/main_window.py" line="162" />
        <source>Restored the backup of %1.</source>
        <translation>已恢复 %1 的备份。</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/main_window.py" line="205" />
        <source>Import documents</source>
        <translation>导入文件</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/main_window.py" line="208" />
        <source>Open a case first: dropped files are imported into the open case.</source>
        <translation>请先打开一个案件：拖入的文件会导入当前打开的案件。</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/main_window.py" line="262" />
        <source>The demo case is missing from this installation.</source>
        <translation>此安装中缺少示例案件。</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/main_window.py" line="265" />
        <source>Loading the demo case…</source>
        <translation>正在载入示例案件…</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/main_window.py" line="270" />
        <source>Demo case loaded.</source>
        <translation>示例案件已载入。</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/main_window.py" line="286" />
        <source>Choose a case to check its memory</source>
        <translation>请先选择一个案件再做记忆体检</translation>
    </message>
</context>
<context>
    <name>Maintenance</name>
    <message>
        <location filename="../../desktop_app/ui/maintenance/model.py" line="29" />
        <source>Stale, linked to nothing</source>
        <extracomment>how many characters of each note a row shows (the full text is in its tooltip)</extracomment>
        <translation>久未使用且无关联</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/maintenance/model.py" line="30" />
        <source>Near-duplicates</source>
        <translation>疑似重复</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/maintenance/model.py" line="31" />
        <source>Possible update</source>
        <translation>可能已更新</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/maintenance/model.py" line="32" />
        <source>Date has passed</source>
        <translation>日期已过</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/maintenance/model.py" line="33" />
        <source>Open conflict</source>
        <translation>有冲突</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/maintenance/model.py" line="40" />
        <source>archive</source>
        <translation>归档</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/maintenance/model.py" line="41" />
        <source>merge: you see both and the merged text</source>
        <translation>合并：先查看两条记忆和合并后的内容</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/maintenance/model.py" line="44" />
        <source>the newer replaces the older</source>
        <translation>新的取代旧的</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/maintenance/model.py" line="45" />
        <source>expire</source>
        <translation>标记失效</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/maintenance/model.py" line="46" />
        <source>you choose which one holds; the other is expired</source>
        <translation>由你选择哪条成立，另一条设为失效</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/maintenance/model.py" line="56" />
        <source>similarity %1</source>
        <translation>相似度 %1</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/maintenance/model.py" line="91" />
        <source>Proposal</source>
        <translation>建议</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/maintenance/model.py" line="92" />
        <source>Memories</source>
        <translation>记忆</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/maintenance/model.py" line="93" />
        <source>If accepted</source>
        <translation>接受后</translation>
    </message>
</context>
<context>
    <name>MaintenanceDialog</name>
    <message>
        <location filename="../../desktop_app/ui/maintenance/dialog.py" line="82" />
        <location filename="../../desktop_app/ui/maintenance/dialog.py" line="172" />
        <location filename="../../desktop_app/ui/maintenance/dialog.py" line="198" />
        <source>Memory check-up</source>
        <extracomment>kinds the lawyer decides in a dialog of their own (merge dialog, conflict dialog)</extracomment>
        <translation>记忆体检</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/maintenance/dialog.py" line="98" />
        <source>Accept selected</source>
        <translation>接受所选</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/maintenance/dialog.py" line="99" />
        <source>Dismiss selected</source>
        <translation>忽略所选</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/maintenance/dialog.py" line="103" />
        <source>Accept all of this kind</source>
        <translation>接受此类全部</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/maintenance/dialog.py" line="104" />
        <source>Dismiss all of this kind</source>
        <translation>忽略此类全部</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/maintenance/dialog.py" line="105" />
        <source>Check now</source>
        <translation>立即体检</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/maintenance/dialog.py" line="158" />
        <source>This case has not been checked yet.</source>
        <translation>本案尚未体检。</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/maintenance/dialog.py" line="160" />
        <source>Nothing to clean up: every memory looks current.</source>
        <translation>无需清理：所有记忆看起来都是最新的。</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/maintenance/dialog.py" line="164" />
        <source>%1 proposals from the check of %2. Nothing changes until you accept.</source>
        <translation>%2 体检共 %1 条建议。在您接受之前不会做任何改动。</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/maintenance/dialog.py" line="200" />
        <source>Apply %1 proposals? Archived, merged and expired memories stay in history and can be restored.</source>
        <translation>执行 %1 条建议？归档、合并和失效的记忆都保留在历史中，可以恢复。</translation>
    </message>
</context>
<context>
    <name>MemoriesPopup</name>
    <message>
        <location filename="../../desktop_app/ui/chat/memories_popup.py" line="36" />
        <source>Show in Notes</source>
        <translation>在记忆中查看</translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_app/ui/chat/memories_popup.py" line="59" />
        <source>%n memories have since been deleted.</source>
        <translation><numerusform>其中 %n 条记忆已被删除。</numerusform></translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/chat/memories_popup.py" line="65" />
        <source>Nothing to show.</source>
        <translation>没有内容。</translation>
    </message>
</context>
<context>
    <name>MergeDialog</name>
    <message>
        <location filename="../../desktop_app/ui/notes/merge_dialog.py" line="96" />
        <source>event date %1</source>
        <extracomment>how much of a linked note's text a link line shows (relation label as stored, linked note's text) of each link, one per linked note</extracomment>
        <translation>发生日期 %1</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/merge_dialog.py" line="101" />
        <source>recorded %1</source>
        <translation>记录于 %1</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/merge_dialog.py" line="126" />
        <source>Merge memories</source>
        <translation>合并记忆</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/merge_dialog.py" line="129" />
        <source>Choose the memory to keep; the others are merged into it and kept in history as replaced by the merge. Their links move to the kept memory.</source>
        <translation>选择要保留的记忆；其余记忆并入这一条，并作为“已被合并”保留在历史中。它们的关联会转到保留的记忆上。</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/merge_dialog.py" line="146" />
        <source>Merged text (you can edit it)</source>
        <translation>合并后的内容（可修改）</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/merge_dialog.py" line="159" />
        <source>Merge</source>
        <translation>合并</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/merge_dialog.py" line="160" />
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/merge_dialog.py" line="172" />
        <source>Keep this one</source>
        <translation>保留这条</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/merge_dialog.py" line="181" />
        <source>Links (%1):</source>
        <translation>关联（%1）：</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/merge_dialog.py" line="184" />
        <source>No links</source>
        <translation>暂无关联</translation>
    </message>
</context>
<context>
    <name>MessageWidget</name>
    <message>
        <location filename="../../desktop_app/ui/chat/message.py" line="127" />
        <source>You</source>
        <extracomment>a user message longer than this (characters or lines) shows its start and an "expand" button instead of one screen-filling bubble Markdown as GitHub writes it, with raw HTML shown as text a cited passage was clicked: (document id, passage id) for the viewer</extracomment>
        <translation>我</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/chat/message.py" line="127" />
        <source>LexMem</source>
        <translation>律记</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/chat/message.py" line="171" />
        <source>Copy</source>
        <translation>复制</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/chat/message.py" line="160" />
        <location filename="../../desktop_app/ui/chat/message.py" line="173" />
        <source>Retry</source>
        <extracomment>Retry next to "Stopped" / "Cut off" / "Connection broke" (the last reply only)</extracomment>
        <translation>重试</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/chat/message.py" line="226" />
        <source>Show less</source>
        <translation>收起</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/chat/message.py" line="228" />
        <source>Show all (%1 characters)</source>
        <translation>展开全文（共 %1 字）</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/chat/message.py" line="244" />
        <source>Thinking…</source>
        <translation>思考中…</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/chat/message.py" line="254" />
        <source>Stopped</source>
        <translation>已停止</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/chat/message.py" line="254" />
        <source>You stopped this reply; what came is kept.</source>
        <translation>您停止了这条回答；已收到的部分已保留。</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/chat/message.py" line="256" />
        <source>Cut off</source>
        <translation>已截断</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/chat/message.py" line="257" />
        <source>The reply reached the model's length limit and was cut off.</source>
        <translation>回答达到了模型的长度上限，被截断了。</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/chat/message.py" line="260" />
        <source>Connection broke</source>
        <translation>连接中断</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/chat/message.py" line="261" />
        <source>The connection broke during this reply; what came is kept.</source>
        <translation>回答过程中连接中断；已收到的部分已保留。</translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_app/ui/chat/message.py" line="286" />
        <source>Used %n memories</source>
        <translation><numerusform>用了 %n 条记忆</numerusform></translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/chat/message.py" line="287" />
        <source>Memories recalled for this reply; click to see them</source>
        <translation>本次回答调取的记忆，点击查看</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/chat/message.py" line="300" />
        <source>Cited:</source>
        <translation>引用：</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/chat/message.py" line="300" />
        <source>Sources given:</source>
        <translation>提供的原文：</translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_app/ui/chat/message.py" line="315" />
        <source>Memory updated · %n</source>
        <translation><numerusform>记忆已更新 · %n</numerusform></translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/chat/message.py" line="316" />
        <source>What was learned from this turn; click to see it</source>
        <translation>本轮对话学到的内容，点击查看</translation>
    </message>
</context>
<context>
    <name>NoteDetail</name>
    <message>
        <location filename="../../desktop_app/ui/notes/detail.py" line="73" />
        <location filename="../../desktop_app/ui/notes/detail.py" line="269" />
        <source>Memory</source>
        <extracomment>"From 起诉状.pdf p. 3" was clicked: (document id, page)</extracomment>
        <translation>记忆</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/detail.py" line="82" />
        <source>What should LexMem remember?</source>
        <translation>要让律记记住什么？</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/detail.py" line="92" />
        <source>Category</source>
        <translation>类别</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/detail.py" line="94" />
        <source>e.g. 2024-07-15 (when it happened)</source>
        <translation>例如 2024-07-15（事情发生的日期）</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/detail.py" line="96" />
        <source>When the fact happened or takes effect, not when it was recorded; 2024-07-15, 2024-07 or July 15, 2024</source>
        <translation>事实发生或生效的日期，不是记录的日期；可写 2024-07-15、2024-07 或 2024年7月15日</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/detail.py" line="99" />
        <source>Event date</source>
        <translation>事件日期</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/detail.py" line="101" />
        <source>Unknown</source>
        <translation>未知</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/detail.py" line="104" />
        <source>Whose assertion this is</source>
        <translation>这是谁的说法</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/detail.py" line="105" />
        <source>Source</source>
        <translation>来源</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/detail.py" line="111" />
        <source>Open the page this memory was drawn from</source>
        <translation>打开这条记忆出自的那一页</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/detail.py" line="117" />
        <source>comma-separated</source>
        <translation>用逗号分隔</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/detail.py" line="118" />
        <source>Tags</source>
        <translation>标签</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/detail.py" line="119" />
        <source>Always recall for this case</source>
        <translation>本案中始终召回</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/detail.py" line="120" />
        <source>Pinned</source>
        <translation>置顶</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/detail.py" line="124" />
        <source>Save</source>
        <translation>保存</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/detail.py" line="127" />
        <source>Undo last change</source>
        <translation>撤销上次修改</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/detail.py" line="156" />
        <source>Keep this one</source>
        <translation>保留这条</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/detail.py" line="157" />
        <source>This memory is right: the other is expired (kept in history)</source>
        <translation>这条记忆正确：另一条设为失效（保留在历史中）</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/detail.py" line="158" />
        <source>Keep the other</source>
        <translation>以另一条为准</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/detail.py" line="159" />
        <source>The other memory is right: this one is expired (kept in history)</source>
        <translation>另一条记忆正确：这条设为失效（保留在历史中）</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/detail.py" line="160" />
        <source>Keep both</source>
        <translation>两条都保留</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/detail.py" line="161" />
        <source>Both stay: the conflict is marked as settled</source>
        <translation>两条都保留，冲突标记为已处理</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/detail.py" line="177" />
        <source>Keywords and context</source>
        <translation>关键词与背景</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/detail.py" line="180" />
        <source>Links</source>
        <translation>关联</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/detail.py" line="190" />
        <source>Remove link</source>
        <translation>移除关联</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/detail.py" line="194" />
        <source>What the link means: proves, applies to, contradicts, adds to, replaces, related</source>
        <translation>关联的含义：证明、适用、矛盾、补充、取代、相关</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/detail.py" line="202" />
        <source>Type</source>
        <translation>类型</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/detail.py" line="207" />
        <source>History</source>
        <translation>历史</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/detail.py" line="219" />
        <location filename="../../desktop_app/ui/notes/detail.py" line="258" />
        <location filename="../../desktop_app/ui/notes/detail.py" line="290" />
        <source>Expire</source>
        <translation>设为失效</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/detail.py" line="220" />
        <source>No longer true: kept in history, never recalled</source>
        <translation>不再成立：保留在历史中，但不再调取</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/detail.py" line="222" />
        <source>Delete</source>
        <translation>删除</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/detail.py" line="224" />
        <source>Delete for good: the text is erased from every file</source>
        <translation>彻底删除：文字从所有文件中抹除</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/detail.py" line="256" />
        <source>No memory selected</source>
        <translation>未选择记忆</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/detail.py" line="259" />
        <source>Select a memory in the list to see and edit it.</source>
        <translation>在列表中选择一条记忆即可查看和编辑。</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/detail.py" line="271" />
        <source>Global</source>
        <translation>全局</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/detail.py" line="271" />
        <source>This case</source>
        <translation>本案</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/detail.py" line="278" />
        <source>recorded %1</source>
        <translation>记录于 %1</translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_app/ui/notes/detail.py" line="279" />
        <source>recalled %n times</source>
        <translation><numerusform>被调取 %n 次</numerusform></translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/detail.py" line="290" />
        <source>Restore</source>
        <translation>恢复</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/detail.py" line="293" />
        <source>Keywords</source>
        <translation>关键词</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/detail.py" line="294" />
        <source>Context</source>
        <translation>背景</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/detail.py" line="307" />
        <source>another memory</source>
        <translation>另一条记忆</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/detail.py" line="328" />
        <source>No links</source>
        <translation>暂无关联</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/detail.py" line="351" />
        <source>Open conflict: this memory (%1) contradicts:</source>
        <translation>待处理冲突：这条记忆（%1）与以下记忆矛盾：</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/detail.py" line="391" />
        <source>Merged from:</source>
        <translation>合并自：</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/detail.py" line="391" />
        <source>Merged into:</source>
        <translation>已合并到：</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/detail.py" line="412" />
        <source>From %1</source>
        <translation>出自 %1</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/texts.py" line="74" />
        <source>related</source>
        <translation>相关</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/texts.py" line="75" />
        <source>evolved</source>
        <translation>演化</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/texts.py" line="76" />
        <source>supersedes</source>
        <translation>取代</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/texts.py" line="77" />
        <source>manual</source>
        <translation>手动</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/texts.py" line="78" />
        <source>possible duplicate</source>
        <translation>可能重复</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/texts.py" line="79" />
        <source>conflict</source>
        <translation>冲突</translation>
    </message>
</context>
<context>
    <name>NotesTableModel</name>
    <message>
        <location filename="../../desktop_app/ui/notes/model.py" line="218" />
        <source>Content</source>
        <translation>内容</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/model.py" line="218" />
        <source>Content · most relevant first</source>
        <extracomment>ids of the shown scope's notes in an open conflict (a badge on their row) search results still in the engine's relevance order (no column sort applied)</extracomment>
        <translation>内容 · 按相关度排序</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/model.py" line="219" />
        <source>Category</source>
        <translation>类别</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/model.py" line="220" />
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/model.py" line="221" />
        <source>Recorded</source>
        <translation>记录于</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/model.py" line="282" />
        <source>Open conflict: contradicts a memory from another source</source>
        <translation>待处理冲突：与另一来源的记忆相矛盾</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/model.py" line="222" />
        <source>Updated</source>
        <translation>更新于</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/model.py" line="223" />
        <source>Event date</source>
        <translation>事件日期</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/model.py" line="224" />
        <source>Source</source>
        <translation>来源</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/model.py" line="227" />
        <source>When the fact happened or takes effect (not when it was recorded)</source>
        <translation>事实发生或生效的日期（不是记录的日期）</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/model.py" line="231" />
        <location filename="../../desktop_app/ui/notes/model.py" line="285" />
        <source>Pinned</source>
        <translation>置顶</translation>
    </message>
</context>
<context>
    <name>NotesView</name>
    <message>
        <location filename="../../desktop_app/ui/notes/view.py" line="96" />
        <source>Search memories (meaning, not just words)</source>
        <extracomment>Import documents… (PDF, Word, images, text) for the case: the Documents tab does it open a document's page in the viewer: (document id, page)</extracomment>
        <translation>搜索记忆（按含义，不只是字面）</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/view.py" line="97" />
        <source>Search memories</source>
        <translation>搜索记忆</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/view.py" line="107" />
        <source>All categories</source>
        <translation>全部类别</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/view.py" line="116" />
        <source>All statuses</source>
        <translation>全部状态</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/view.py" line="120" />
        <source>Global too</source>
        <translation>含全局</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/view.py" line="121" />
        <source>Also show global memories (preferences, reusable knowledge)</source>
        <translation>同时显示全局记忆（偏好、通用知识）</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/view.py" line="129" />
        <source>Show only the memories in an open conflict (to settle by hand)</source>
        <translation>只显示存在待处理冲突的记忆（需要手动处理）</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/view.py" line="136" />
        <source>Table</source>
        <translation>表格</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/view.py" line="139" />
        <source>Timeline</source>
        <translation>时间线</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/view.py" line="150" />
        <source>Import and export</source>
        <translation>导入与导出</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/view.py" line="154" />
        <source>Import documents…</source>
        <translation>导入文件…</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/view.py" line="157" />
        <source>Import JSON Lines…</source>
        <translation>导入 JSON Lines…</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/view.py" line="161" />
        <source>Export JSON Lines…</source>
        <translation>导出 JSON Lines…</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/view.py" line="164" />
        <source>Export Markdown…</source>
        <translation>导出 Markdown…</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/view.py" line="168" />
        <source>Evidence list (Word)…</source>
        <translation>证据目录（Word）…</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/view.py" line="172" />
        <location filename="../../desktop_app/ui/notes/view.py" line="747" />
        <source>Merge</source>
        <translation>合并</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/view.py" line="173" />
        <source>Merge the second selected memory into the first</source>
        <translation>把选中的第二条记忆合并到第一条</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/view.py" line="175" />
        <location filename="../../desktop_app/ui/notes/view.py" line="748" />
        <source>Link</source>
        <translation>关联</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/view.py" line="176" />
        <source>Link the two selected memories</source>
        <translation>关联选中的两条记忆</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/view.py" line="180" />
        <source>Add</source>
        <translation>添加</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/view.py" line="182" />
        <source>Add a memory by hand (Ctrl+Shift+M)</source>
        <translation>手动添加记忆 (Ctrl+Shift+M)</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/view.py" line="320" />
        <source>Conflicts %1</source>
        <translation>冲突 %1</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/view.py" line="380" />
        <source>No match: no memory is about “%1”. Try other words, or clear the search.</source>
        <translation>无匹配：没有与“%1”相关的记忆。换个说法试试，或清除搜索。</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/view.py" line="387" />
        <source>Searching…</source>
        <translation>正在搜索…</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/view.py" line="390" />
        <source>No match</source>
        <translation>无匹配</translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_app/ui/notes/view.py" line="390" />
        <source>%n matching memories, most relevant first</source>
        <translation><numerusform>%n 条匹配的记忆，按相关度排序</numerusform></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_app/ui/notes/view.py" line="395" />
        <source>%n memories of this case and global</source>
        <translation><numerusform>本案及全局共 %n 条记忆</numerusform></translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_app/ui/notes/view.py" line="397" />
        <source>%n memories of this case</source>
        <translation><numerusform>本案 %n 条记忆</numerusform></translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/view.py" line="526" />
        <source>Marked as expired: %1</source>
        <translation>已设为失效：%1</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/view.py" line="537" />
        <source>Restored.</source>
        <translation>已恢复。</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/view.py" line="683" />
        <source>Memories merged.</source>
        <translation>记忆已合并。</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/view.py" line="802" />
        <source>Exported %1 memories of this case: %2 in effect, %3 expired or replaced (global memories not included).</source>
        <translation>已导出本案 %1 条记忆：有效 %2 条，已失效或已取代 %3 条（不含全局记忆）。</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/view.py" line="393" />
        <source>%1 of %2 memories (scroll for more)</source>
        <translation>已显示 %1 / %2 条记忆（向下滚动加载更多）</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/view.py" line="596" />
        <location filename="../../desktop_app/ui/notes/view.py" line="647" />
        <source>Delete memory</source>
        <translation>删除记忆</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/view.py" line="597" />
        <source>Delete this memory for good? Its text, history and links are erased and cannot be restored.

%1</source>
        <translation>确定彻底删除这条记忆？其文字、历史和关联都会被抹除，无法恢复。

%1</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/view.py" line="611" />
        <source>Deleted: %1</source>
        <translation>已删除：%1</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/view.py" line="625" />
        <source>The memory is deleted; its text still appears elsewhere in this case (for example in a chat message).</source>
        <translation>记忆已删除；它的文字仍出现在本案的其他地方（例如某条聊天消息中）。</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/view.py" line="643" />
        <source>The memory is deleted, but its text still appears in these backups (for example in a chat message):
%1

Remove the text from these backups too?</source>
        <translation>这条记忆已删除，但以下备份中仍有这段文字（例如在对话消息里）：
%1

也从这些备份中删除这段文字吗？</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/view.py" line="654" />
        <source>The text is gone from every backup.</source>
        <translation>所有备份中都已不含这段文字。</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/view.py" line="656" />
        <source>%1 backups still hold the text.</source>
        <translation>仍有 %1 个备份包含这段文字。</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/view.py" line="698" />
        <source>Linked.</source>
        <translation>已关联。</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/view.py" line="713" />
        <source>Conflict settled.</source>
        <translation>冲突已处理。</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/view.py" line="752" />
        <source>Expire</source>
        <translation>设为失效</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/view.py" line="753" />
        <source>Delete…</source>
        <translation>删除…</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/view.py" line="767" />
        <source>Import memories</source>
        <translation>导入记忆</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/view.py" line="767" />
        <source>JSON Lines (*.jsonl *.json);;All files (*)</source>
        <translation>JSON Lines (*.jsonl *.json);;所有文件 (*)</translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_app/ui/notes/view.py" line="775" />
        <source>Imported %n memories.</source>
        <translation><numerusform>已导入 %n 条记忆。</numerusform></translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/view.py" line="781" />
        <location filename="../../desktop_app/ui/notes/view.py" line="786" />
        <source>Export memories</source>
        <translation>导出记忆</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/view.py" line="781" />
        <source>JSON Lines (*.jsonl)</source>
        <translation>JSON Lines (*.jsonl)</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/view.py" line="786" />
        <source>Markdown (*.md)</source>
        <translation>Markdown (*.md)</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/view.py" line="835" />
        <source>LexMem</source>
        <translation>律记</translation>
    </message>
</context>
<context>
    <name>PassageViewer</name>
    <message>
        <location filename="../../desktop_app/ui/documents/viewer.py" line="128" />
        <source>Document</source>
        <extracomment>the page is rendered this wide (device pixels), enough to read a court document the page (pdf / image) with the passage's boxes painted, decoded and painted in the worker (QImage, unlike QPixmap, may be made off the UI thread); None for docx / text the page's width in the units of the passages' boxes (None: unknown) the passage to highlight (None: just the page)</extracomment>
        <translation>文件</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/documents/viewer.py" line="156" />
        <source>Previous page</source>
        <translation>上一页</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/documents/viewer.py" line="157" />
        <source>Next page</source>
        <translation>下一页</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/documents/viewer.py" line="162" />
        <source>Close</source>
        <translation>关闭</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/documents/viewer.py" line="228" />
        <source>Page %1 of %2</source>
        <translation>第 %1 页，共 %2 页</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/documents/viewer.py" line="305" />
        <source>The document could not be shown.</source>
        <translation>无法显示这份文件。</translation>
    </message>
</context>
<context>
    <name>ProxySection</name>
    <message>
        <location filename="../../desktop_app/ui/settings/proxy_section.py" line="33" />
        <source>Proxy</source>
        <translation>代理</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/settings/proxy_section.py" line="40" />
        <source>Proxy address</source>
        <translation>代理地址</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/settings/proxy_section.py" line="43" />
        <source>Only if the proxy asks for one (kept in the keyring)</source>
        <translation>仅在代理要求时填写（保存在系统钥匙串中）</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/settings/proxy_section.py" line="44" />
        <source>Proxy password</source>
        <translation>代理密码</translation>
    </message>
</context>
<context>
    <name>QFileDialog</name>
    <message>
        <location filename="../../desktop_app/ui/i18n.py" line="37" />
        <source>&amp;Look in:</source>
        <translation>查找范围(&amp;L)：</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/i18n.py" line="38" />
        <source>Files of &amp;type:</source>
        <translation>文件类型(&amp;T)：</translation>
    </message>
</context>
<context>
    <name>ReasoningDisclosure</name>
    <message>
        <location filename="../../desktop_app/ui/chat/reasoning_box.py" line="30" />
        <source>Reasoning</source>
        <translation>思考过程</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/chat/reasoning_box.py" line="31" />
        <source>The model's thinking before its answer (not saved)</source>
        <translation>模型作答前的思考（不会保存）</translation>
    </message>
</context>
<context>
    <name>SettingsDialog</name>
    <message>
        <location filename="../../desktop_app/ui/settings/dialog.py" line="48" />
        <location filename="../../desktop_app/ui/settings/dialog.py" line="456" />
        <location filename="../../desktop_app/ui/settings/dialog.py" line="471" />
        <location filename="../../desktop_app/ui/settings/dialog.py" line="484" />
        <source>Settings</source>
        <translation>设置</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/settings/dialog.py" line="54" />
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/settings/dialog.py" line="55" />
        <source>Memory</source>
        <translation>记忆</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/settings/dialog.py" line="56" />
        <source>Appearance</source>
        <translation>外观</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/settings/dialog.py" line="57" />
        <source>Data</source>
        <translation>数据</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/settings/dialog.py" line="63" />
        <source>Save</source>
        <translation>保存</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/settings/dialog.py" line="65" />
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/settings/dialog.py" line="85" />
        <source>Provider</source>
        <translation>服务商</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/settings/dialog.py" line="88" />
        <source>Base URL</source>
        <translation>服务地址</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/settings/dialog.py" line="96" />
        <source>Show</source>
        <translation>显示</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/settings/dialog.py" line="104" />
        <source>API key</source>
        <translation>API 密钥</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/settings/dialog.py" line="112" />
        <source>Chat model</source>
        <translation>对话模型</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/settings/dialog.py" line="116" />
        <source>Used for note construction and extraction; may be a cheaper model</source>
        <translation>用于构建和提取记忆，可以选更便宜的模型</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/settings/dialog.py" line="118" />
        <source>Memory model</source>
        <translation>记忆模型</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/settings/dialog.py" line="124" />
        <source>Test connection</source>
        <translation>测试连接</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/settings/dialog.py" line="125" />
        <source>Connect to the endpoint and list its models</source>
        <translation>连接服务并列出可用模型</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/settings/dialog.py" line="135" />
        <source>Only the chat and memory requests go to this endpoint. Local providers keep everything on this computer.</source>
        <translation>只有对话和记忆请求会发往该服务。本机服务商则一切都留在这台电脑上。</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/settings/dialog.py" line="152" />
        <source>How similar a memory must be to the question to be used (0–1)</source>
        <translation>记忆与问题的相似度达到多少才会被使用（0–1）</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/settings/dialog.py" line="154" />
        <source>Similarity threshold</source>
        <translation>相似度阈值</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/settings/dialog.py" line="158" />
        <source>At most this many memories are given to the model per reply</source>
        <translation>每次回答最多提供给模型的记忆条数</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/settings/dialog.py" line="160" />
        <source>Memories per reply</source>
        <translation>每次回答的记忆数</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/settings/dialog.py" line="166" />
        <source>How much newer memories are preferred (0 = not at all)</source>
        <translation>较新记忆的优先程度（0 = 不优先）</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/settings/dialog.py" line="168" />
        <source>Recency weight</source>
        <translation>时效权重</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/settings/dialog.py" line="169" />
        <source>Check the memory periodically</source>
        <translation>定期体检记忆</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/settings/dialog.py" line="171" />
        <source>Proposes clean-ups in the background; nothing changes until you accept</source>
        <translation>在后台提出清理建议；在您接受之前不会做任何改动</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/settings/dialog.py" line="173" />
        <source>Memory check-up</source>
        <translation>记忆体检</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/settings/dialog.py" line="176" />
        <location filename="../../desktop_app/ui/settings/dialog.py" line="180" />
        <source> days</source>
        <translation> 天</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/settings/dialog.py" line="177" />
        <source>Check every</source>
        <translation>体检周期</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/settings/dialog.py" line="182" />
        <source>Propose archiving memories not recalled for this long and linked to nothing</source>
        <translation>超过这么久未被召回且无任何关联的记忆，建议归档</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/settings/dialog.py" line="184" />
        <source>Stale after</source>
        <translation>视为久未使用</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/settings/dialog.py" line="191" />
        <source>How similar two memories must be to be proposed as duplicates (0.91 calibrated)</source>
        <translation>两条记忆相似到什么程度才建议合并为重复（校准值 0.91）</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/settings/dialog.py" line="194" />
        <source>Duplicate similarity</source>
        <translation>重复相似度</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/settings/dialog.py" line="204" />
        <source>System default</source>
        <translation>跟随系统</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/settings/dialog.py" line="207" />
        <source>Language</source>
        <translation>语言</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/settings/dialog.py" line="208" />
        <source>A new language applies after a restart (LexMem offers it).</source>
        <translation>更换语言后需要重启（律记会询问是否立即重启）。</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/settings/dialog.py" line="485" />
        <source>The new language applies after LexMem restarts. Restart now?</source>
        <translation>新的语言在律记重启后生效。现在重启吗？</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/settings/dialog.py" line="212" />
        <source>System</source>
        <translation>跟随系统</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/settings/dialog.py" line="213" />
        <source>Light</source>
        <translation>浅色</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/settings/dialog.py" line="214" />
        <source>Dark</source>
        <translation>深色</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/settings/dialog.py" line="215" />
        <source>Theme</source>
        <translation>主题</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/settings/dialog.py" line="221" />
        <source>Data folder:</source>
        <translation>数据文件夹：</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/settings/dialog.py" line="227" />
        <source>Open data folder</source>
        <translation>打开数据文件夹</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/settings/dialog.py" line="237" />
        <source>A backup is a consistent copy of the database. Restoring replaces all current memories and conversations (a safety copy is kept in the backups folder).</source>
        <translation>备份是数据库的一致性副本。恢复会替换当前全部记忆和对话（会在备份文件夹中保留一份安全副本）。</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/settings/dialog.py" line="244" />
        <source>Back up now…</source>
        <translation>立即备份…</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/settings/dialog.py" line="246" />
        <source>Restore from backup…</source>
        <translation>从备份恢复…</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/settings/dialog.py" line="258" />
        <source>About LexMem…</source>
        <translation>关于律记…</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/settings/dialog.py" line="362" />
        <source>Not needed for this provider</source>
        <translation>该服务商无需密钥</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/settings/dialog.py" line="365" />
        <source>•••••••• saved in the system keyring — type to replace</source>
        <translation>•••••••• 已保存在系统密钥库 — 输入新密钥可替换</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/settings/dialog.py" line="368" />
        <source>Paste your API key</source>
        <translation>粘贴您的 API 密钥</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/settings/dialog.py" line="370" />
        <source>The key is stored only in the system keyring, never in a file.</source>
        <translation>密钥只保存在系统密钥库中，绝不写入文件。</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/settings/dialog.py" line="373" />
        <source>No system keyring is available: the key is kept for this session only.</source>
        <translation>系统密钥库不可用：密钥只在本次运行中保存。</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/settings/dialog.py" line="388" />
        <source>Connecting…</source>
        <translation>正在连接…</translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_app/ui/settings/dialog.py" line="405" />
        <source>Connected. %n models available.</source>
        <translation><numerusform>连接成功，共 %n 个可用模型。</numerusform></translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/settings/dialog.py" line="407" />
        <source>Connected.</source>
        <translation>连接成功。</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/settings/dialog.py" line="430" />
        <source>The address is not well-formed: it should look like https://api.example.com/v1.</source>
        <translation>地址格式不对：应类似 https://api.example.com/v1。</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/settings/dialog.py" line="431" />
        <source>Enter the name of the chat model.</source>
        <translation>请填写对话模型名称。</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/settings/dialog.py" line="432" />
        <source>Enter the name of the memory model (it may be the chat model).</source>
        <translation>请填写记忆模型名称（可与对话模型相同）。</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/settings/dialog.py" line="494" />
        <source>Back up</source>
        <translation>备份</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/settings/dialog.py" line="494" />
        <source>SQLite database (*.sqlite3)</source>
        <translation>SQLite 数据库 (*.sqlite3)</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/settings/dialog.py" line="501" />
        <source>Backing up…</source>
        <translation>正在备份…</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/settings/dialog.py" line="505" />
        <source>Backup written to %1</source>
        <translation>备份已写入 %1</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/settings/dialog.py" line="514" />
        <location filename="../../desktop_app/ui/settings/dialog.py" line="521" />
        <source>Restore from backup</source>
        <translation>从备份恢复</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/settings/dialog.py" line="515" />
        <source>SQLite database (*.sqlite3 *.db);;All files (*)</source>
        <translation>SQLite 数据库 (*.sqlite3 *.db);;所有文件 (*)</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/settings/dialog.py" line="522" />
        <source>Replace all current memories and conversations with the backup?</source>
        <translation>用备份替换当前全部记忆和对话？</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/settings/dialog.py" line="529" />
        <source>Restoring…</source>
        <translation>正在恢复…</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/settings/dialog.py" line="535" />
        <source>Restored.</source>
        <translation>已恢复。</translation>
    </message>
</context>
<context>
    <name>Sidebar</name>
    <message>
        <location filename="../../desktop_app/ui/sidebar.py" line="61" />
        <source>CASE</source>
        <extracomment>the user asked for the current case's memory check-up (记忆体检)</extracomment>
        <translation>案件</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/sidebar.py" line="73" />
        <source>Case actions</source>
        <translation>案件操作</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/sidebar.py" line="76" />
        <source>New case…</source>
        <translation>新建案件…</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/sidebar.py" line="78" />
        <source>Rename case…</source>
        <translation>重命名案件…</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/sidebar.py" line="79" />
        <location filename="../../desktop_app/ui/sidebar.py" line="249" />
        <location filename="../../desktop_app/ui/sidebar.py" line="449" />
        <source>Archive case</source>
        <translation>归档案件</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/sidebar.py" line="80" />
        <source>Delete case…</source>
        <translation>删除案件…</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/sidebar.py" line="81" />
        <source>Memory check-up…</source>
        <translation>记忆体检…</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/sidebar.py" line="84" />
        <source>Show archived cases</source>
        <translation>显示已归档案件</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/sidebar.py" line="102" />
        <location filename="../../desktop_app/ui/sidebar.py" line="354" />
        <location filename="../../desktop_app/ui/sidebar.py" line="380" />
        <source>New chat</source>
        <translation>新对话</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/sidebar.py" line="104" />
        <source>Start a new conversation (Ctrl+N)</source>
        <translation>开始新对话 (Ctrl+N)</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/sidebar.py" line="109" />
        <source>Search conversations</source>
        <translation>搜索对话</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/sidebar.py" line="114" />
        <source>CONVERSATIONS</source>
        <translation>对话</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/sidebar.py" line="142" />
        <source>No conversations yet</source>
        <translation>还没有对话</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/sidebar.py" line="147" />
        <source>Settings</source>
        <translation>设置</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/sidebar.py" line="149" />
        <source>Provider, memory, language, theme, backup (Ctrl+,)</source>
        <translation>服务商、记忆、语言、主题、备份 (Ctrl+,)</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/sidebar.py" line="154" />
        <source>Rename…</source>
        <translation>重命名…</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/sidebar.py" line="158" />
        <source>Delete…</source>
        <translation>删除…</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/sidebar.py" line="187" />
        <source> (archived)</source>
        <translation>（已归档）</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/sidebar.py" line="216" />
        <source>New case</source>
        <translation>新建案件</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/sidebar.py" line="216" />
        <location filename="../../desktop_app/ui/sidebar.py" line="231" />
        <source>Case name:</source>
        <translation>案件名称：</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/sidebar.py" line="231" />
        <source>Rename case</source>
        <translation>重命名案件</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/sidebar.py" line="251" />
        <source>Archive “%1”? Its notes and conversations are kept; it is hidden from the list.</source>
        <translation>归档“%1”？其记忆和对话都会保留，只是不再显示在列表中。</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/sidebar.py" line="280" />
        <source>Delete “%1” for good?

This erases from this computer, and from every backup (%2):
• %3 memories, with their history and links
• %4 conversations with %5 messages
• %6 memory tasks still waiting

It cannot be undone. To keep the case but hide it, archive it instead.</source>
        <translation>永久删除“%1”？

将从这台电脑以及所有备份（%2 个）中抹去：
• %3 条记忆，连同其历史和关联
• %4 个对话，共 %5 条消息
• %6 个待处理的记忆任务

此操作无法撤销。若只想保留案件并隐藏它，请改用归档。</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/sidebar.py" line="294" />
        <location filename="../../desktop_app/ui/sidebar.py" line="311" />
        <source>Delete case</source>
        <translation>删除案件</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/sidebar.py" line="312" />
        <source>The case is deleted, but some of its text still appears in:
%1</source>
        <translation>案件已删除，但以下位置仍含有它的部分文字：
%1</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/sidebar.py" line="394" />
        <source>Rename conversation</source>
        <translation>重命名对话</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/sidebar.py" line="394" />
        <source>Title:</source>
        <translation>标题：</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/sidebar.py" line="412" />
        <source>Delete conversation</source>
        <translation>删除对话</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/sidebar.py" line="413" />
        <source>Delete “%1” and all its messages? Memories learned from it are kept.</source>
        <translation>删除“%1”及其全部消息？从中学到的记忆会保留。</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/sidebar.py" line="449" />
        <source>Unarchive case</source>
        <translation>取消归档</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/sidebar.py" line="453" />
        <source>LexMem</source>
        <translation>律记</translation>
    </message>
</context>
<context>
    <name>Startup</name>
    <message>
        <location filename="../../desktop_app/ui/app.py" line="122" />
        <source>LexMem is already running with this data folder. Switch to the open window, or close it first.</source>
        <extracomment>set by the start-up test and benchmark: at the main window's first paint print one line, ``first-paint {"engine": &lt;state&gt;, "heavy_modules_loaded": [...]}``, then ``engine-ready`` (or ``engine-failed``) once the engine has opened in the background what must not be imported before the window shows (each costs a noticeable part of a second) the engine opens at the first paint; this is the latest it waits (a window never painted)</extracomment>
        <translation>律记已在使用这个数据文件夹。请切换到已打开的窗口，或先将其关闭。</translation>
    </message>
</context>
<context>
    <name>StatusBar</name>
    <message>
        <location filename="../../desktop_app/ui/status_bar.py" line="58" />
        <source>Loading the memory library…</source>
        <extracomment>the check-up badge was clicked</extracomment>
        <translation>正在加载记忆库…</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/status_bar.py" line="60" />
        <source>Memory library unavailable</source>
        <translation>记忆库不可用</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/status_bar.py" line="86" />
        <source>This case: %1 memories · with global: %2</source>
        <translation>本案 %1 条记忆 · 含全局 %2 条</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/status_bar.py" line="91" />
        <source>Memories in effect (not expired or replaced): %1 in this case, %2 with the global ones (preferences, reusable knowledge).</source>
        <translation>有效记忆（未失效、未被取代）：本案 %1 条；加上全局记忆（偏好、通用知识）共 %2 条。</translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_app/ui/status_bar.py" line="101" />
        <source>%n memory jobs pending</source>
        <translation><numerusform>%n 项记忆任务待处理</numerusform></translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/status_bar.py" line="103" />
        <source>Memory work waiting for the model (runs when it is reachable)</source>
        <translation>等待模型的记忆任务（连上模型后自动运行）</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/status_bar.py" line="111" />
        <source>No model connected</source>
        <translation>未连接模型</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/status_bar.py" line="120" />
        <source>Model setup needs attention</source>
        <translation>模型设置需要检查</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/status_bar.py" line="123" />
        <source>The model connection cannot work as set up: %1</source>
        <translation>按当前设置无法连接模型：%1</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/status_bar.py" line="128" />
        <source>Offline: the model endpoint is not reachable; memory work is queued</source>
        <translation>离线：无法连接模型服务，记忆任务已排队</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/status_bar.py" line="130" />
        <source>Offline: no model connected; notes and graph still work</source>
        <translation>离线：未连接模型，记忆和图谱仍可使用</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/status_bar.py" line="137" />
        <source>Online</source>
        <translation>在线</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/status_bar.py" line="137" />
        <source>Model configured</source>
        <translation>已配置模型</translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_app/ui/status_bar.py" line="142" />
        <source>Check-up: %n to review</source>
        <translation><numerusform>记忆体检：%n 项待处理</numerusform></translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/status_bar.py" line="144" />
        <source>The memory check-up proposes clean-ups; nothing changes until you accept</source>
        <translation>记忆体检只提出清理建议；在您接受之前不会做任何改动</translation>
    </message>
</context>
<context>
    <name>StreamFollower</name>
    <message>
        <location filename="../../desktop_app/ui/chat/follow.py" line="40" />
        <source>Jump to latest</source>
        <translation>跳到最新</translation>
    </message>
</context>
<context>
    <name>Texts</name>
    <message>
        <location filename="../../desktop_app/ui/texts.py" line="132" />
        <source>Active</source>
        <translation>有效</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/texts.py" line="133" />
        <source>Superseded</source>
        <translation>已取代</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/texts.py" line="86" />
        <source>from a conversation</source>
        <translation>来自对话</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/texts.py" line="87" />
        <source>added by hand</source>
        <translation>手动添加</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/texts.py" line="88" />
        <source>imported</source>
        <translation>导入</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/texts.py" line="114" />
        <source>Memory added.</source>
        <translation>已添加记忆。</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/texts.py" line="115" />
        <source>Merged into an existing memory.</source>
        <translation>已合并到现有记忆。</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/texts.py" line="116" />
        <source>Added; it replaces an older memory.</source>
        <translation>已添加，并取代了一条旧记忆。</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/texts.py" line="117" />
        <source>Added as history: a memory with a later date replaces it.</source>
        <translation>已作为历史记录添加：有日期更晚的记忆取代了它。</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/texts.py" line="120" />
        <source>Added; it contradicts a memory from another source. Settle it in Conflicts.</source>
        <translation>已添加；它与另一来源的记忆矛盾，请在“冲突”中处理。</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/texts.py" line="123" />
        <source>Added and marked as a possible duplicate of an existing memory.</source>
        <translation>已添加，并标记为与已有记忆可能重复。</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/texts.py" line="126" />
        <source>That memory already exists.</source>
        <translation>这条记忆已存在。</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/texts.py" line="135" />
        <source>Expired</source>
        <translation>已失效</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/texts.py" line="153" />
        <source>Something went wrong. The details are in the log file.</source>
        <translation>出了点问题，详情已写入日志文件。</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/texts.py" line="172" />
        <source>No model provider is connected yet. Open Settings, pick a provider (DeepSeek, OpenAI, or a local Ollama / LM Studio) and enter its API key. Notes and the graph work without it.</source>
        <translation>还没有连接模型服务。请打开设置，选择服务商（DeepSeek、OpenAI，或本机的 Ollama / LM Studio）并填写 API 密钥。不连接模型，记忆和图谱也能使用。</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/texts.py" line="176" />
        <source>The API key was rejected. Check the key in Settings.</source>
        <translation>API 密钥被拒绝，请在设置中检查密钥。</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/texts.py" line="177" />
        <source>The model does not exist on this endpoint. Pick another model in Settings.</source>
        <translation>该服务上没有这个模型，请在设置中选择其他模型。</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/texts.py" line="178" />
        <source>The provider is rate limiting requests. Wait a moment, then retry.</source>
        <translation>请求过于频繁，请稍候再重试。</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/texts.py" line="179" />
        <source>The model endpoint cannot be reached. Check the network or the base URL.</source>
        <translation>无法连接到模型服务，请检查网络或服务地址。</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/texts.py" line="180" />
        <source>The proxy setting cannot be used. Check it in Settings, or choose “No proxy”.</source>
        <translation>代理设置无法使用。请在设置中检查，或选择“不使用代理”。</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/texts.py" line="181" />
        <source>The connection to the model broke during the answer. What came is kept above; retry to get the whole answer.</source>
        <translation>回答过程中与模型的连接中断了。已收到的部分保留在上方；重试可获得完整回答。</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/texts.py" line="183" />
        <source>The answer reached the model's length limit and was cut off. Retry, or ask for a shorter answer.</source>
        <translation>回答达到了模型的长度上限，被截断了。请重试，或要求更简短的回答。</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/texts.py" line="185" />
        <source>This conversation is now longer than the model can read at once. Start a new chat; the case's memories come along.</source>
        <translation>这段对话已超出模型一次能读取的长度。请新建对话；本案的记忆会一并带上。</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/texts.py" line="187" />
        <source>The model endpoint refused this request. Retry, or check the model in Settings.</source>
        <translation>模型服务拒绝了这个请求。请重试，或在设置中检查模型。</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/texts.py" line="189" />
        <source>The model sent an unusable answer. Try again.</source>
        <translation>模型返回了无法使用的结果，请重试。</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/texts.py" line="190" />
        <source>The model call failed.</source>
        <translation>调用模型失败。</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/texts.py" line="191" />
        <source>Reading or writing local data failed.</source>
        <translation>读写本地数据失败。</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/texts.py" line="198" />
        <source>Open Settings</source>
        <translation>打开设置</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/texts.py" line="199" />
        <source>Retry</source>
        <translation>重试</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/texts.py" line="200" />
        <source>New chat</source>
        <translation>新对话</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/i18n.py" line="74" />
        <location filename="../../desktop_app/ui/texts.py" line="21" />
        <source>LexMem</source>
        <translation>律记</translation>
    </message>
</context>
<context>
    <name>TimelineView</name>
    <message>
        <location filename="../../desktop_app/ui/notes/timeline.py" line="61" />
        <source>No dated memories in this case yet.</source>
        <extracomment>categories drawn prominently (events, evidence, deadlines); others are shown lighter</extracomment>
        <translation>本案还没有带日期的记忆。</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/timeline.py" line="66" />
        <source>no date named: the day it was recorded</source>
        <translation>未写明日期：按记录日排列</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/timeline.py" line="67" />
        <source>open conflict</source>
        <translation>待处理冲突</translation>
    </message>
</context>
<context>
    <name>UndoBar</name>
    <message>
        <location filename="../../desktop_app/ui/undo_bar.py" line="31" />
        <source>Undo</source>
        <extracomment>long enough to read the message and change one's mind, short enough not to linger</extracomment>
        <translation>撤销</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/undo_bar.py" line="36" />
        <source>Dismiss</source>
        <translation>关闭</translation>
    </message>
</context>
</TS>