<?xml version='1.0' encoding='utf-8'?>
<TS version="2.1" language="zh_CN" sourcelanguage="en">
<context>
    <name>AboutDialog</name>
    <message>
        <location filename="../../desktop_app/ui/about.py" line="30" />
        <source>About %1</source>
        <translation>关于 %1</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/about.py" line="52" />
        <source>Qt is used under the LGPL v3. Licences of all bundled components:</source>
        <translation>Qt 依据 LGPL v3 使用。所有随附组件的许可证：</translation>
    </message>
</context>
<context>
    <name>AddNoteDialog</name>
    <message>
        <location filename="../../desktop_app/ui/notes/add_dialog.py" line="25" />
        <source>Add memory</source>
        <translation>添加记忆</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/add_dialog.py" line="31" />
        <source>One fact, understandable on its own, e.g. “The hearing is on 15 July 2024 at 9:30.”</source>
        <translation>一条能独立理解的事实，例如“2024年7月15日上午9:30开庭。”</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/add_dialog.py" line="37" />
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
        <source>comma-separated</source>
        <translation>用逗号分隔</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/add_dialog.py" line="43" />
        <source>Tags</source>
        <translation>标签</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/add_dialog.py" line="46" />
        <source>This case</source>
        <translation>本案</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/add_dialog.py" line="47" />
        <source>Global (all cases)</source>
        <translation>全局（所有案件）</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/add_dialog.py" line="48" />
        <source>Scope</source>
        <translation>范围</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/add_dialog.py" line="49" />
        <source>Always recall for this case</source>
        <translation>本案中始终召回</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/add_dialog.py" line="50" />
        <source>Pinned</source>
        <translation>置顶</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/add_dialog.py" line="56" />
        <source>Add</source>
        <translation>添加</translation>
    </message>
</context>
<context>
    <name>ChatView</name>
    <message>
        <location filename="../../desktop_app/ui/chat/view.py" line="206" />
        <source>New chat</source>
        <translation>新对话</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/chat/view.py" line="214" />
        <source>Loading the memory library…</source>
        <translation>正在加载记忆库…</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/chat/view.py" line="218" />
        <source>The memory library could not be opened.</source>
        <translation>无法打开记忆库。</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/chat/view.py" line="224" />
        <source>No case yet. Create one, or load the demo case (a labour dispute) to look around.</source>
        <translation>还没有案件。新建一个，或载入示例案件（一起劳动争议）先看看。</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/chat/view.py" line="227" />
        <source>Load demo case</source>
        <translation>载入示例案件</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/chat/view.py" line="228" />
        <source>New case</source>
        <translation>新建案件</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/chat/view.py" line="234" />
        <source>No model is connected yet. Open Settings, choose a provider and enter its API key; local Ollama or LM Studio need no key. Notes and the graph already work.</source>
        <translation>尚未连接模型。请打开设置，选择服务商并填写 API 密钥；本机的 Ollama 或 LM Studio 无需密钥。记忆和图谱现在就能用。</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/chat/view.py" line="237" />
        <source>Open Settings</source>
        <translation>打开设置</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/chat/view.py" line="246" />
        <source>Ask anything about this case.
LexMem recalls the case's memories for every reply and learns from the conversation.</source>
        <translation>就本案提任何问题。
律记每次回答都会调取本案记忆，并从对话中学习。</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/chat/view.py" line="286" />
        <source>Memory on</source>
        <translation>记忆：开</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/chat/view.py" line="286" />
        <source>Memory off</source>
        <translation>记忆：关</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/chat/view.py" line="289" />
        <source>Memories are recalled and learned in this conversation. Click to turn memory off for privileged talk.</source>
        <translation>本对话会调取和写入记忆。涉及保密内容时，点击关闭记忆。</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/chat/view.py" line="292" />
        <source>Memory is off: nothing is recalled or learned in this conversation.</source>
        <translation>记忆已关闭：本对话既不调取也不写入记忆。</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/chat/view.py" line="542" />
        <source>Memories used for this reply</source>
        <translation>本次回答用到的记忆</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/chat/view.py" line="547" />
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
    <name>Crash</name>
    <message>
        <location filename="../../desktop_app/ui/excepthook.py" line="40" />
        <source>Unexpected error</source>
        <extracomment>tests turn this off; offscreen runs never block on a dialog either</extracomment>
        <translation>意外错误</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/excepthook.py" line="45" />
        <source>Something unexpected went wrong. Your data is safe; the details were written to the log file.</source>
        <translation>发生了意外错误。您的数据是安全的，详细信息已写入日志文件。</translation>
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
    <name>GraphControls</name>
    <message>
        <location filename="../../desktop_app/ui/graph/controls.py" line="61" />
        <source>Search notes…</source>
        <translation>搜索图谱中的记忆…</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/graph/controls.py" line="76" />
        <source>Show or hide this category</source>
        <translation>显示或隐藏此类别</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/graph/controls.py" line="82" />
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/graph/controls.py" line="83" />
        <source>Links</source>
        <translation>关联</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/graph/controls.py" line="86" />
        <source>Whole map</source>
        <translation>全图</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/graph/controls.py" line="87" />
        <source>Focus: 1 hop</source>
        <translation>聚焦：1 跳</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/graph/controls.py" line="88" />
        <source>Focus: 2 hops</source>
        <translation>聚焦：2 跳</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/graph/controls.py" line="89" />
        <source>Show only the selected note's neighbourhood</source>
        <translation>只显示所选记忆的相邻记忆</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/graph/controls.py" line="95" />
        <source>Size: links</source>
        <translation>大小：按关联数</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/graph/controls.py" line="96" />
        <source>Size: retrievals</source>
        <translation>大小：按调取次数</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/graph/controls.py" line="101" />
        <source>Fit</source>
        <translation>适应窗口</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/graph/controls.py" line="102" />
        <source>Re-layout</source>
        <translation>重新布局</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/graph/controls.py" line="104" />
        <source>Export</source>
        <translation>导出</translation>
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
        <location filename="../../desktop_app/ui/graph/view.py" line="322" />
        <source>Export graph</source>
        <translation>导出图谱</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/graph/view.py" line="333" />
        <source>No notes in this case yet.</source>
        <translation>本案还没有记忆。</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/graph/view.py" line="335" />
        <source>{n} notes · {e} links</source>
        <translation>{n} 条记忆 · {e} 条关联</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/graph/view.py" line="337" />
        <source>laying out…</source>
        <translation>正在布局…</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <location filename="../../desktop_app/ui/main_window.py" line="49" />
        <source>Chat</source>
        <translation>对话</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/main_window.py" line="50" />
        <source>Notes</source>
        <translation>记忆</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/main_window.py" line="51" />
        <source>Graph</source>
        <translation>图谱</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/main_window.py" line="98" />
        <source>New chat</source>
        <translation>新对话</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/main_window.py" line="109" />
        <source>About LexMem</source>
        <translation>关于律记</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/main_window.py" line="120" />
        <source>The memory library could not be opened: %1</source>
        <translation>无法打开记忆库：%1</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/main_window.py" line="135" />
        <source>%1

Restore the backup of %2? The damaged file is kept aside.</source>
        <translation>%1

要恢复 %2 的备份吗？损坏的文件会另存保留。</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/main_window.py" line="144" />
        <source>Restored the backup of %1.</source>
        <translation>已恢复 %1 的备份。</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/main_window.py" line="190" />
        <source>The demo case is missing from this installation.</source>
        <translation>此安装中缺少示例案件。</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/main_window.py" line="193" />
        <source>Loading the demo case…</source>
        <translation>正在载入示例案件…</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/main_window.py" line="198" />
        <source>Demo case loaded.</source>
        <translation>示例案件已载入。</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/main_window.py" line="214" />
        <source>Choose a case to check its memory</source>
        <translation>请先选择一个案件再做记忆体检</translation>
    </message>
</context>
<context>
    <name>Maintenance</name>
    <message>
        <location filename="../../desktop_app/ui/maintenance/model.py" line="28" />
        <source>Stale, linked to nothing</source>
        <extracomment>how many characters of each note a row shows (the full text is in its tooltip)</extracomment>
        <translation>久未使用且无关联</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/maintenance/model.py" line="29" />
        <source>Near-duplicates</source>
        <translation>疑似重复</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/maintenance/model.py" line="30" />
        <source>Possible update</source>
        <translation>可能已更新</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/maintenance/model.py" line="31" />
        <source>Date has passed</source>
        <translation>日期已过</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/maintenance/model.py" line="38" />
        <source>archive</source>
        <translation>归档</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/maintenance/model.py" line="39" />
        <source>merge into the first</source>
        <translation>合并到第一条</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/maintenance/model.py" line="40" />
        <source>the newer replaces the older</source>
        <translation>新的取代旧的</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/maintenance/model.py" line="41" />
        <source>expire</source>
        <translation>标记失效</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/maintenance/model.py" line="49" />
        <source>similarity %1</source>
        <translation>相似度 %1</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/maintenance/model.py" line="84" />
        <source>Proposal</source>
        <translation>建议</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/maintenance/model.py" line="85" />
        <source>Memories</source>
        <translation>记忆</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/maintenance/model.py" line="86" />
        <source>If accepted</source>
        <translation>接受后</translation>
    </message>
</context>
<context>
    <name>MaintenanceDialog</name>
    <message>
        <location filename="../../desktop_app/ui/maintenance/dialog.py" line="66" />
        <location filename="../../desktop_app/ui/maintenance/dialog.py" line="156" />
        <location filename="../../desktop_app/ui/maintenance/dialog.py" line="175" />
        <source>Memory check-up</source>
        <translation>记忆体检</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/maintenance/dialog.py" line="82" />
        <source>Accept selected</source>
        <translation>接受所选</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/maintenance/dialog.py" line="83" />
        <source>Dismiss selected</source>
        <translation>忽略所选</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/maintenance/dialog.py" line="87" />
        <source>Accept all of this kind</source>
        <translation>接受此类全部</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/maintenance/dialog.py" line="88" />
        <source>Dismiss all of this kind</source>
        <translation>忽略此类全部</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/maintenance/dialog.py" line="89" />
        <source>Check now</source>
        <translation>立即体检</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/maintenance/dialog.py" line="142" />
        <source>This case has not been checked yet.</source>
        <translation>本案尚未体检。</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/maintenance/dialog.py" line="144" />
        <source>Nothing to clean up: every memory looks current.</source>
        <translation>无需清理：所有记忆看起来都是最新的。</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/maintenance/dialog.py" line="148" />
        <source>%1 proposals from the check of %2. Nothing changes until you accept.</source>
        <translation>%2 体检共 %1 条建议。在您接受之前不会做任何改动。</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/maintenance/dialog.py" line="177" />
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
    <name>MessageWidget</name>
    <message>
        <location filename="../../desktop_app/ui/chat/message.py" line="93" />
        <source>You</source>
        <translation>我</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/chat/message.py" line="93" />
        <source>LexMem</source>
        <translation>律记</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/chat/message.py" line="116" />
        <source>Copy</source>
        <translation>复制</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/chat/message.py" line="118" />
        <source>Retry</source>
        <translation>重试</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/chat/message.py" line="148" />
        <source>Thinking…</source>
        <translation>思考中…</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/chat/message.py" line="153" />
        <source>Stopped</source>
        <translation>已停止</translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_app/ui/chat/message.py" line="162" />
        <source>Used %n memories</source>
        <translation><numerusform>用了 %n 条记忆</numerusform></translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/chat/message.py" line="163" />
        <source>Memories recalled for this reply; click to see them</source>
        <translation>本次回答调取的记忆，点击查看</translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_app/ui/chat/message.py" line="169" />
        <source>Memory updated · %n</source>
        <translation><numerusform>记忆已更新 · %n</numerusform></translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/chat/message.py" line="170" />
        <source>What was learned from this turn; click to see it</source>
        <translation>本轮对话学到的内容，点击查看</translation>
    </message>
</context>
<context>
    <name>NoteDetail</name>
    <message>
        <location filename="../../desktop_app/ui/notes/detail.py" line="66" />
        <location filename="../../desktop_app/ui/notes/detail.py" line="188" />
        <source>Memory</source>
        <translation>记忆</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/detail.py" line="75" />
        <source>What should LexMem remember?</source>
        <translation>要让律记记住什么？</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/detail.py" line="85" />
        <source>Category</source>
        <translation>类别</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/detail.py" line="87" />
        <source>comma-separated</source>
        <translation>用逗号分隔</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/detail.py" line="88" />
        <source>Tags</source>
        <translation>标签</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/detail.py" line="89" />
        <source>Always recall for this case</source>
        <translation>本案中始终召回</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/detail.py" line="90" />
        <source>Pinned</source>
        <translation>置顶</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/detail.py" line="94" />
        <source>Save</source>
        <translation>保存</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/detail.py" line="97" />
        <source>Undo last change</source>
        <translation>撤销上次修改</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/detail.py" line="110" />
        <source>Keywords and context</source>
        <translation>关键词与背景</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/detail.py" line="113" />
        <source>Links</source>
        <translation>关联</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/detail.py" line="118" />
        <source>Remove link</source>
        <translation>移除关联</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/detail.py" line="126" />
        <source>History</source>
        <translation>历史</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/detail.py" line="134" />
        <location filename="../../desktop_app/ui/notes/detail.py" line="211" />
        <source>Expire</source>
        <translation>设为失效</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/detail.py" line="135" />
        <source>No longer true: kept in history, never recalled</source>
        <translation>不再成立：保留在历史中，但不再调取</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/detail.py" line="137" />
        <source>Delete</source>
        <translation>删除</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/detail.py" line="140" />
        <source>Delete for good: the text is erased from every file</source>
        <translation>彻底删除：文字从所有文件中抹除</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/detail.py" line="180" />
        <source>No memory selected</source>
        <translation>未选择记忆</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/detail.py" line="181" />
        <source>Select a memory in the list to see and edit it.</source>
        <translation>在列表中选择一条记忆即可查看和编辑。</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/detail.py" line="192" />
        <source>Global</source>
        <translation>全局</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/detail.py" line="192" />
        <source>This case</source>
        <translation>本案</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/detail.py" line="199" />
        <source>created %1</source>
        <translation>创建于 %1</translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_app/ui/notes/detail.py" line="200" />
        <source>recalled %n times</source>
        <translation><numerusform>被调取 %n 次</numerusform></translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/detail.py" line="211" />
        <source>Restore</source>
        <translation>恢复</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/detail.py" line="215" />
        <source>Keywords</source>
        <translation>关键词</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/detail.py" line="216" />
        <source>Context</source>
        <translation>背景</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/detail.py" line="235" />
        <source>No links</source>
        <translation>暂无关联</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/detail.py" line="299" />
        <source>related</source>
        <translation>相关</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/detail.py" line="300" />
        <source>evolved</source>
        <translation>演化</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/detail.py" line="301" />
        <source>supersedes</source>
        <translation>取代</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/detail.py" line="302" />
        <source>manual</source>
        <translation>手动</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/detail.py" line="303" />
        <source>possible duplicate</source>
        <translation>可能重复</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/detail.py" line="309" />
        <source>you</source>
        <translation>我</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/detail.py" line="310" />
        <source>note construction</source>
        <translation>笔记构建</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/detail.py" line="311" />
        <source>memory evolution</source>
        <translation>记忆演化</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/detail.py" line="312" />
        <source>memory decision</source>
        <translation>记忆决策</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/detail.py" line="313" />
        <source>import</source>
        <translation>导入</translation>
    </message>
</context>
<context>
    <name>NotesTableModel</name>
    <message>
        <location filename="../../desktop_app/ui/notes/model.py" line="223" />
        <source>Content</source>
        <translation>内容</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/model.py" line="224" />
        <source>Category</source>
        <translation>类别</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/model.py" line="225" />
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/model.py" line="226" />
        <source>Date</source>
        <translation>日期</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/model.py" line="227" />
        <source>Updated</source>
        <translation>更新于</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/model.py" line="232" />
        <location filename="../../desktop_app/ui/notes/model.py" line="274" />
        <source>Pinned</source>
        <translation>置顶</translation>
    </message>
</context>
<context>
    <name>NotesView</name>
    <message>
        <location filename="../../desktop_app/ui/notes/view.py" line="69" />
        <source>Search memories (meaning, not just words)</source>
        <translation>搜索记忆（按含义，不只是字面）</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/view.py" line="75" />
        <source>All categories</source>
        <translation>全部类别</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/view.py" line="84" />
        <source>All statuses</source>
        <translation>全部状态</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/view.py" line="88" />
        <source>Global too</source>
        <translation>含全局</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/view.py" line="90" />
        <source>Also show global memories (preferences, reusable knowledge)</source>
        <translation>同时显示全局记忆（偏好、通用知识）</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/view.py" line="97" />
        <source>Table</source>
        <translation>表格</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/view.py" line="100" />
        <source>Timeline</source>
        <translation>时间线</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/view.py" line="111" />
        <source>Import and export</source>
        <translation>导入与导出</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/view.py" line="115" />
        <source>Import JSON Lines…</source>
        <translation>导入 JSON Lines…</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/view.py" line="119" />
        <source>Export JSON Lines…</source>
        <translation>导出 JSON Lines…</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/view.py" line="122" />
        <source>Export Markdown…</source>
        <translation>导出 Markdown…</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/view.py" line="126" />
        <location filename="../../desktop_app/ui/notes/view.py" line="580" />
        <source>Merge</source>
        <translation>合并</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/view.py" line="127" />
        <source>Merge the second selected memory into the first</source>
        <translation>把选中的第二条记忆合并到第一条</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/view.py" line="129" />
        <location filename="../../desktop_app/ui/notes/view.py" line="581" />
        <source>Link</source>
        <translation>关联</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/view.py" line="130" />
        <source>Link the two selected memories</source>
        <translation>关联选中的两条记忆</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/view.py" line="134" />
        <source>Add</source>
        <translation>添加</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/view.py" line="136" />
        <source>Add a memory by hand (Ctrl+Shift+M)</source>
        <translation>手动添加记忆 (Ctrl+Shift+M)</translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_app/ui/notes/view.py" line="301" />
        <source>%n matching memories</source>
        <translation><numerusform>%n 条匹配的记忆</numerusform></translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/view.py" line="304" />
        <source>%1 of %2 memories (scroll for more)</source>
        <translation>已显示 %1 / %2 条记忆（向下滚动加载更多）</translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_app/ui/notes/view.py" line="309" />
        <source>%n memories</source>
        <translation><numerusform>%n 条记忆</numerusform></translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/view.py" line="423" />
        <source>Memory added.</source>
        <translation>已添加记忆。</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/view.py" line="424" />
        <source>Merged into an existing memory.</source>
        <translation>已合并到现有记忆。</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/view.py" line="425" />
        <source>Added; it replaces an older memory.</source>
        <translation>已添加，并取代了一条旧记忆。</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/view.py" line="426" />
        <source>That memory already exists.</source>
        <translation>这条记忆已存在。</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/view.py" line="455" />
        <location filename="../../desktop_app/ui/notes/view.py" line="491" />
        <source>Delete memory</source>
        <translation>删除记忆</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/view.py" line="457" />
        <source>Delete this memory for good? Its text, history and links are erased and cannot be restored.

%1</source>
        <translation>确定彻底删除这条记忆？其文字、历史和关联都会被抹除，无法恢复。

%1</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/view.py" line="489" />
        <source>The memory is deleted, but its text still appears in these backups (for example in a chat message):
%1

Remove the text from these backups too?</source>
        <translation>这条记忆已删除，但以下备份中仍有这段文字（例如在对话消息里）：
%1

也从这些备份中删除这段文字吗？</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/view.py" line="498" />
        <source>The text is gone from every backup.</source>
        <translation>所有备份中都已不含这段文字。</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/view.py" line="500" />
        <source>%1 backups still hold the text.</source>
        <translation>仍有 %1 个备份包含这段文字。</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/view.py" line="517" />
        <source>Merge memories</source>
        <translation>合并记忆</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/view.py" line="519" />
        <source>Merge the second memory into the first? The second is kept in history as superseded.

1. %1
2. %2</source>
        <translation>把第二条记忆合并到第一条？第二条将标记为已取代并保留在历史中。

1. %1
2. %2</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/view.py" line="545" />
        <source>Linked.</source>
        <translation>已关联。</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/view.py" line="587" />
        <source>Expire</source>
        <translation>设为失效</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/view.py" line="590" />
        <source>Delete…</source>
        <translation>删除…</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/view.py" line="605" />
        <source>Import memories</source>
        <translation>导入记忆</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/view.py" line="605" />
        <source>JSON Lines (*.jsonl *.json);;All files (*)</source>
        <translation>JSON Lines (*.jsonl *.json);;所有文件 (*)</translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_app/ui/notes/view.py" line="614" />
        <source>Imported %n memories.</source>
        <translation><numerusform>已导入 %n 条记忆。</numerusform></translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/view.py" line="627" />
        <location filename="../../desktop_app/ui/notes/view.py" line="634" />
        <source>Export memories</source>
        <translation>导出记忆</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/view.py" line="627" />
        <source>JSON Lines (*.jsonl)</source>
        <translation>JSON Lines (*.jsonl)</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/view.py" line="634" />
        <source>Markdown (*.md)</source>
        <translation>Markdown (*.md)</translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_app/ui/notes/view.py" line="648" />
        <source>Exported %n memories.</source>
        <translation><numerusform>已导出 %n 条记忆。</numerusform></translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/notes/view.py" line="665" />
        <source>LexMem</source>
        <translation>律记</translation>
    </message>
</context>
<context>
    <name>SettingsDialog</name>
    <message>
        <location filename="../../desktop_app/ui/settings/dialog.py" line="47" />
        <location filename="../../desktop_app/ui/settings/dialog.py" line="412" />
        <location filename="../../desktop_app/ui/settings/dialog.py" line="424" />
        <source>Settings</source>
        <translation>设置</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/settings/dialog.py" line="53" />
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/settings/dialog.py" line="54" />
        <source>Memory</source>
        <translation>记忆</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/settings/dialog.py" line="55" />
        <source>Appearance</source>
        <translation>外观</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/settings/dialog.py" line="56" />
        <source>Data</source>
        <translation>数据</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/settings/dialog.py" line="62" />
        <source>Save</source>
        <translation>保存</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/settings/dialog.py" line="64" />
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/settings/dialog.py" line="84" />
        <source>Provider</source>
        <translation>服务商</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/settings/dialog.py" line="87" />
        <source>Base URL</source>
        <translation>服务地址</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/settings/dialog.py" line="94" />
        <source>Show</source>
        <translation>显示</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/settings/dialog.py" line="102" />
        <source>API key</source>
        <translation>API 密钥</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/settings/dialog.py" line="110" />
        <source>Chat model</source>
        <translation>对话模型</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/settings/dialog.py" line="114" />
        <source>Used for note construction and extraction; may be a cheaper model</source>
        <translation>用于构建和提取记忆，可以选更便宜的模型</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/settings/dialog.py" line="116" />
        <source>Memory model</source>
        <translation>记忆模型</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/settings/dialog.py" line="119" />
        <source>Test connection</source>
        <translation>测试连接</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/settings/dialog.py" line="120" />
        <source>Connect to the endpoint and list its models</source>
        <translation>连接服务并列出可用模型</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/settings/dialog.py" line="129" />
        <source>Only the chat and memory requests go to this endpoint. Local providers keep everything on this computer.</source>
        <translation>只有对话和记忆请求会发往该服务。本机服务商则一切都留在这台电脑上。</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/settings/dialog.py" line="146" />
        <source>How similar a memory must be to the question to be used (0–1)</source>
        <translation>记忆与问题的相似度达到多少才会被使用（0–1）</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/settings/dialog.py" line="148" />
        <source>Similarity threshold</source>
        <translation>相似度阈值</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/settings/dialog.py" line="152" />
        <source>At most this many memories are given to the model per reply</source>
        <translation>每次回答最多提供给模型的记忆条数</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/settings/dialog.py" line="154" />
        <source>Memories per reply</source>
        <translation>每次回答的记忆数</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/settings/dialog.py" line="160" />
        <source>How much newer memories are preferred (0 = not at all)</source>
        <translation>较新记忆的优先程度（0 = 不优先）</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/settings/dialog.py" line="162" />
        <source>Recency weight</source>
        <translation>时效权重</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/settings/dialog.py" line="163" />
        <source>Check the memory periodically</source>
        <translation>定期体检记忆</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/settings/dialog.py" line="165" />
        <source>Proposes clean-ups in the background; nothing changes until you accept</source>
        <translation>在后台提出清理建议；在您接受之前不会做任何改动</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/settings/dialog.py" line="167" />
        <source>Memory check-up</source>
        <translation>记忆体检</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/settings/dialog.py" line="170" />
        <location filename="../../desktop_app/ui/settings/dialog.py" line="174" />
        <source> days</source>
        <translation> 天</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/settings/dialog.py" line="171" />
        <source>Check every</source>
        <translation>体检周期</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/settings/dialog.py" line="176" />
        <source>Propose archiving memories not recalled for this long and linked to nothing</source>
        <translation>超过这么久未被召回且无任何关联的记忆，建议归档</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/settings/dialog.py" line="178" />
        <source>Stale after</source>
        <translation>视为久未使用</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/settings/dialog.py" line="185" />
        <source>How similar two memories must be to be proposed as duplicates (0.91 calibrated)</source>
        <translation>两条记忆相似到什么程度才建议合并为重复（校准值 0.91）</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/settings/dialog.py" line="188" />
        <source>Duplicate similarity</source>
        <translation>重复相似度</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/settings/dialog.py" line="196" />
        <source>System default</source>
        <translation>跟随系统</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/settings/dialog.py" line="199" />
        <source>Language</source>
        <translation>语言</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/settings/dialog.py" line="200" />
        <source>A new language applies after a restart.</source>
        <translation>更改语言后需重启生效。</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/settings/dialog.py" line="204" />
        <source>System</source>
        <translation>跟随系统</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/settings/dialog.py" line="205" />
        <source>Light</source>
        <translation>浅色</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/settings/dialog.py" line="206" />
        <source>Dark</source>
        <translation>深色</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/settings/dialog.py" line="207" />
        <source>Theme</source>
        <translation>主题</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/settings/dialog.py" line="213" />
        <source>Data folder:</source>
        <translation>数据文件夹：</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/settings/dialog.py" line="219" />
        <source>Open data folder</source>
        <translation>打开数据文件夹</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/settings/dialog.py" line="229" />
        <source>A backup is a consistent copy of the database. Restoring replaces all current memories and conversations (a safety copy is kept in the backups folder).</source>
        <translation>备份是数据库的一致性副本。恢复会替换当前全部记忆和对话（会在备份文件夹中保留一份安全副本）。</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/settings/dialog.py" line="236" />
        <source>Back up now…</source>
        <translation>立即备份…</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/settings/dialog.py" line="238" />
        <source>Restore from backup…</source>
        <translation>从备份恢复…</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/settings/dialog.py" line="249" />
        <source>About LexMem…</source>
        <translation>关于律记…</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/settings/dialog.py" line="344" />
        <source>Not needed for this provider</source>
        <translation>该服务商无需密钥</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/settings/dialog.py" line="347" />
        <source>•••••••• saved in the system keyring — type to replace</source>
        <translation>•••••••• 已保存在系统密钥库 — 输入新密钥可替换</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/settings/dialog.py" line="350" />
        <source>Paste your API key</source>
        <translation>粘贴您的 API 密钥</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/settings/dialog.py" line="352" />
        <source>The key is stored only in the system keyring, never in a file.</source>
        <translation>密钥只保存在系统密钥库中，绝不写入文件。</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/settings/dialog.py" line="355" />
        <source>No system keyring is available: the key is kept for this session only.</source>
        <translation>系统密钥库不可用：密钥只在本次运行中保存。</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/settings/dialog.py" line="366" />
        <source>Connecting…</source>
        <translation>正在连接…</translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_app/ui/settings/dialog.py" line="381" />
        <source>Connected. %n models available.</source>
        <translation><numerusform>连接成功，共 %n 个可用模型。</numerusform></translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/settings/dialog.py" line="383" />
        <source>Connected.</source>
        <translation>连接成功。</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/settings/dialog.py" line="425" />
        <source>The new language applies after LexMem restarts.</source>
        <translation>新语言将在律记重启后生效。</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/settings/dialog.py" line="435" />
        <source>Back up</source>
        <translation>备份</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/settings/dialog.py" line="435" />
        <source>SQLite database (*.sqlite3)</source>
        <translation>SQLite 数据库 (*.sqlite3)</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/settings/dialog.py" line="442" />
        <source>Backing up…</source>
        <translation>正在备份…</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/settings/dialog.py" line="446" />
        <source>Backup written to %1</source>
        <translation>备份已写入 %1</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/settings/dialog.py" line="455" />
        <location filename="../../desktop_app/ui/settings/dialog.py" line="462" />
        <source>Restore from backup</source>
        <translation>从备份恢复</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/settings/dialog.py" line="456" />
        <source>SQLite database (*.sqlite3 *.db);;All files (*)</source>
        <translation>SQLite 数据库 (*.sqlite3 *.db);;所有文件 (*)</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/settings/dialog.py" line="463" />
        <source>Replace all current memories and conversations with the backup?</source>
        <translation>用备份替换当前全部记忆和对话？</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/settings/dialog.py" line="470" />
        <source>Restoring…</source>
        <translation>正在恢复…</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/settings/dialog.py" line="476" />
        <source>Restored.</source>
        <translation>已恢复。</translation>
    </message>
</context>
<context>
    <name>Sidebar</name>
    <message>
        <location filename="../../desktop_app/ui/sidebar.py" line="53" />
        <source>LexMem 律记</source>
        <extracomment>the user asked for the current case's memory check-up (记忆体检)</extracomment>
        <translation>律记 LexMem</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/sidebar.py" line="60" />
        <source>CASE</source>
        <translation>案件</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/sidebar.py" line="67" />
        <source>The case you are working on</source>
        <translation>当前处理的案件</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/sidebar.py" line="72" />
        <source>Case actions</source>
        <translation>案件操作</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/sidebar.py" line="75" />
        <source>New case…</source>
        <translation>新建案件…</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/sidebar.py" line="77" />
        <source>Rename case…</source>
        <translation>重命名案件…</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/sidebar.py" line="78" />
        <location filename="../../desktop_app/ui/sidebar.py" line="245" />
        <location filename="../../desktop_app/ui/sidebar.py" line="390" />
        <source>Archive case</source>
        <translation>归档案件</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/sidebar.py" line="79" />
        <source>Memory check-up…</source>
        <translation>记忆体检…</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/sidebar.py" line="82" />
        <source>Show archived cases</source>
        <translation>显示已归档案件</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/sidebar.py" line="99" />
        <location filename="../../desktop_app/ui/sidebar.py" line="296" />
        <location filename="../../desktop_app/ui/sidebar.py" line="322" />
        <source>New chat</source>
        <translation>新对话</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/sidebar.py" line="101" />
        <source>Start a new conversation (Ctrl+N)</source>
        <translation>开始新对话 (Ctrl+N)</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/sidebar.py" line="106" />
        <source>Search conversations</source>
        <translation>搜索对话</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/sidebar.py" line="111" />
        <source>CONVERSATIONS</source>
        <translation>对话</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/sidebar.py" line="139" />
        <source>No conversations yet</source>
        <translation>还没有对话</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/sidebar.py" line="144" />
        <source>Settings</source>
        <translation>设置</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/sidebar.py" line="146" />
        <source>Provider, memory, language, theme, backup (Ctrl+,)</source>
        <translation>服务商、记忆、语言、主题、备份 (Ctrl+,)</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/sidebar.py" line="151" />
        <source>Rename…</source>
        <translation>重命名…</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/sidebar.py" line="155" />
        <source>Delete…</source>
        <translation>删除…</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/sidebar.py" line="184" />
        <source> (archived)</source>
        <translation>（已归档）</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/sidebar.py" line="212" />
        <source>New case</source>
        <translation>新建案件</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/sidebar.py" line="212" />
        <location filename="../../desktop_app/ui/sidebar.py" line="227" />
        <source>Case name:</source>
        <translation>案件名称：</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/sidebar.py" line="227" />
        <source>Rename case</source>
        <translation>重命名案件</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/sidebar.py" line="247" />
        <source>Archive “%1”? Its notes and conversations are kept; it is hidden from the list.</source>
        <translation>归档“%1”？其记忆和对话都会保留，只是不再显示在列表中。</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/sidebar.py" line="336" />
        <source>Rename conversation</source>
        <translation>重命名对话</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/sidebar.py" line="336" />
        <source>Title:</source>
        <translation>标题：</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/sidebar.py" line="354" />
        <source>Delete conversation</source>
        <translation>删除对话</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/sidebar.py" line="355" />
        <source>Delete “%1” and all its messages? Memories learned from it are kept.</source>
        <translation>删除“%1”及其全部消息？从中学到的记忆会保留。</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/sidebar.py" line="390" />
        <source>Unarchive case</source>
        <translation>取消归档</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/sidebar.py" line="394" />
        <source>LexMem</source>
        <translation>律记</translation>
    </message>
</context>
<context>
    <name>Startup</name>
    <message>
        <location filename="../../desktop_app/ui/app.py" line="74" />
        <source>LexMem is already running with this data folder. Switch to the open window, or close it first.</source>
        <extracomment>set by the start-up test and benchmark: print a line at the main window's first paint</extracomment>
        <translation>律记已在使用这个数据文件夹。请切换到已打开的窗口，或先将其关闭。</translation>
    </message>
</context>
<context>
    <name>StatusBar</name>
    <message>
        <location filename="../../desktop_app/ui/status_bar.py" line="56" />
        <source>Loading the memory library…</source>
        <extracomment>the check-up badge was clicked</extracomment>
        <translation>正在加载记忆库…</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/status_bar.py" line="58" />
        <source>Memory library unavailable</source>
        <translation>记忆库不可用</translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_app/ui/status_bar.py" line="63" />
        <source>%n memories</source>
        <translation><numerusform>%n 条记忆</numerusform></translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/status_bar.py" line="65" />
        <source>%1 active of %2 memories, %3 links</source>
        <translation>共 %2 条记忆，其中 %1 条有效，%3 条关联</translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_app/ui/status_bar.py" line="71" />
        <source>%n memory jobs pending</source>
        <translation><numerusform>%n 项记忆任务待处理</numerusform></translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/status_bar.py" line="73" />
        <source>Memory work waiting for the model (runs when it is reachable)</source>
        <translation>等待模型的记忆任务（连上模型后自动运行）</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/status_bar.py" line="81" />
        <source>No model connected</source>
        <translation>未连接模型</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/status_bar.py" line="90" />
        <source>Offline: the model endpoint is not reachable; memory work is queued</source>
        <translation>离线：无法连接模型服务，记忆任务已排队</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/status_bar.py" line="92" />
        <source>Offline: no model connected; notes and graph still work</source>
        <translation>离线：未连接模型，记忆和图谱仍可使用</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/status_bar.py" line="99" />
        <source>Online</source>
        <translation>在线</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/status_bar.py" line="99" />
        <source>Model configured</source>
        <translation>已配置模型</translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop_app/ui/status_bar.py" line="104" />
        <source>Check-up: %n to review</source>
        <translation><numerusform>记忆体检：%n 项待处理</numerusform></translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/status_bar.py" line="106" />
        <source>The memory check-up proposes clean-ups; nothing changes until you accept</source>
        <translation>记忆体检只提出清理建议；在您接受之前不会做任何改动</translation>
    </message>
</context>
<context>
    <name>Texts</name>
    <message>
        <location filename="../../desktop_app/ui/texts.py" line="37" />
        <source>Active</source>
        <translation>有效</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/texts.py" line="38" />
        <source>Superseded</source>
        <translation>已取代</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/texts.py" line="39" />
        <source>Archived</source>
        <translation>已归档</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/texts.py" line="46" />
        <source>No model provider is connected yet. Open Settings, pick a provider (DeepSeek, OpenAI, or a local Ollama / LM Studio) and enter its API key. Notes and the graph work without it.</source>
        <translation>还没有连接模型服务。请打开设置，选择服务商（DeepSeek、OpenAI，或本机的 Ollama / LM Studio）并填写 API 密钥。不连接模型，记忆和图谱也能使用。</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/texts.py" line="51" />
        <source>The API key was rejected. Check the key in Settings.</source>
        <translation>API 密钥被拒绝，请在设置中检查密钥。</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/texts.py" line="54" />
        <source>The model does not exist on this endpoint. Pick another model in Settings.</source>
        <translation>该服务上没有这个模型，请在设置中选择其他模型。</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/texts.py" line="57" />
        <source>The provider is rate limiting requests. Wait a moment, then retry.</source>
        <translation>请求过于频繁，请稍候再重试。</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/texts.py" line="60" />
        <source>The model endpoint cannot be reached. Check the network or the base URL.</source>
        <translation>无法连接到模型服务，请检查网络或服务地址。</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/texts.py" line="63" />
        <source>The model sent an unusable answer. Try again.</source>
        <translation>模型返回了无法使用的结果，请重试。</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/texts.py" line="66" />
        <source>The model call failed.</source>
        <translation>调用模型失败。</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/texts.py" line="67" />
        <source>Reading or writing local data failed.</source>
        <translation>读写本地数据失败。</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/texts.py" line="74" />
        <source>Open Settings</source>
        <translation>打开设置</translation>
    </message>
    <message>
        <location filename="../../desktop_app/ui/texts.py" line="75" />
        <source>Retry</source>
        <translation>重试</translation>
    </message>
</context>
<context>
    <name>TimelineView</name>
    <message>
        <location filename="../../desktop_app/ui/notes/timeline.py" line="42" />
        <source>No dated memories in this case yet.</source>
        <extracomment>categories drawn prominently (events, evidence, deadlines); others are shown lighter</extracomment>
        <translation>本案还没有带日期的记忆。</translation>
    </message>
</context>
</TS>