<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name></name>
    <message>
        <location filename="../../desktop/engine/after_answer.py" line="94"/>
        <location filename="../../desktop/engine/turn/chat_service.py" line="71"/>
        <location filename="../../desktop/engine/turn/chat_service.py" line="208"/>
        <location filename="../../desktop/engine/turn/chat_service.py" line="216"/>
        <source>New chat</source>
        <translation>新对话</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/attachments/inputs.py" line="248"/>
        <source>The workspace file was not sent: {error}</source>
        <translation>工作区文件未发送：{error}</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/attachments/inputs.py" line="262"/>
        <source>{name} could not be read from Parley&apos;s attachment store and was not sent.</source>
        <translation>无法从 Parley 的附件存储中读取 {name}，未发送。</translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/engine/attachments/inputs.py" line="267"/>
        <source>%n image(s) were read with OCR — {engine}</source>
        <translation>
            <numerusform>已用 OCR 识别 %n 张图片 — {engine}</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../desktop/engine/attachments/inputs.py" line="268"/>
        <source>(no text found)</source>
        <translation>（未识别到文字）</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/turn/chat_service.py" line="355"/>
        <location filename="../../desktop/engine/turn/chat_service.py" line="420"/>
        <source>Type a message first.</source>
        <translation>请先输入消息。</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/turn/chat_service.py" line="358"/>
        <source>A message can carry at most {count} files.</source>
        <translation>一条消息最多可带 {count} 个文件。</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/connection_check.py" line="29"/>
        <source>This server does not list its models (it answered {status} when asked for them). Type the model ids under Models, one per line: chatting works without the list, and Test connection then asks the first model for one token. (If this server should list its models, check the base URL.)</source>
        <translation>此服务器不提供模型列表（请求模型列表时返回了 {status}）。请在“模型”中填写模型 ID，每行一个：没有列表也能对话，“测试连接”会请第一个模型回复一个 Token。（如果此服务器本应提供模型列表，请检查 API 地址。）</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/context/service.py" line="69"/>
        <source>Earlier messages could not be summarised, so only the recent ones were sent.</source>
        <translation>无法为较早的消息生成摘要，因此只发送了最近的消息。</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/context/service.py" line="145"/>
        <source>Choose a model first: there is none to write the summary.</source>
        <translation>请先选择模型：当前没有可用于撰写摘要的模型。</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/context/service.py" line="175"/>
        <source>No model to write the summary with.</source>
        <translation>没有可用于撰写摘要的模型。</translation>
    </message>
    <message>
        <location filename="../../desktop/core/assistants.py" line="111"/>
        <location filename="../../desktop/core/usage_settings.py" line="70"/>
        <source>must be a number, not {type}</source>
        <translation>必须是数字，而不是 {type}</translation>
    </message>
    <message>
        <location filename="../../desktop/core/assistants.py" line="115"/>
        <source>must be between {low:g} and {high:g}</source>
        <translation>必须介于 {low:g} 和 {high:g} 之间</translation>
    </message>
    <message>
        <location filename="../../desktop/core/assistants.py" line="127"/>
        <source>must be a whole number, not {type}</source>
        <translation>必须是整数，而不是 {type}</translation>
    </message>
    <message>
        <location filename="../../desktop/core/assistants.py" line="136"/>
        <location filename="../../desktop/core/desktop_settings.py" line="38"/>
        <location filename="../../desktop/core/mcp_settings.py" line="81"/>
        <location filename="../../desktop/core/prompts.py" line="164"/>
        <location filename="../../desktop/core/remote_target.py" line="74"/>
        <source>must be a string, not {type}</source>
        <translation>必须是字符串，而不是 {type}</translation>
    </message>
    <message>
        <location filename="../../desktop/core/assistants.py" line="148"/>
        <location filename="../../desktop/core/ocr_settings.py" line="35"/>
        <source>{value!r} is not a &quot;provider/model&quot; reference (e.g. &quot;openai/gpt-4o&quot;)</source>
        <translation>{value!r} 不是 &quot;provider/model&quot; 格式的模型引用（例如 &quot;openai/gpt-4o&quot;）</translation>
    </message>
    <message>
        <location filename="../../desktop/core/assistants.py" line="159"/>
        <source>must be a list of tool names, or null for every tool</source>
        <translation>必须是工具名称列表，或用 null 表示全部工具</translation>
    </message>
    <message>
        <location filename="../../desktop/core/assistants.py" line="163"/>
        <location filename="../../desktop/core/settings.py" line="491"/>
        <location filename="../../desktop/core/settings.py" line="502"/>
        <source>is not a tool name</source>
        <translation>不是工具名称</translation>
    </message>
    <message>
        <location filename="../../desktop/core/assistants.py" line="171"/>
        <source>must be a list of library ids</source>
        <translation>必须是知识库 ID 列表</translation>
    </message>
    <message>
        <location filename="../../desktop/core/assistants.py" line="174"/>
        <source>is not a library id</source>
        <translation>不是知识库 ID</translation>
    </message>
    <message>
        <location filename="../../desktop/core/assistants.py" line="188"/>
        <location filename="../../desktop/core/backup_settings.py" line="39"/>
        <location filename="../../desktop/core/desktop_settings.py" line="53"/>
        <location filename="../../desktop/core/knowledge.py" line="168"/>
        <location filename="../../desktop/core/mcp_settings.py" line="88"/>
        <location filename="../../desktop/core/mcp_settings.py" line="105"/>
        <location filename="../../desktop/core/mcp_settings.py" line="163"/>
        <location filename="../../desktop/core/memory.py" line="140"/>
        <location filename="../../desktop/core/prompts.py" line="157"/>
        <location filename="../../desktop/core/remote_target.py" line="128"/>
        <location filename="../../desktop/core/sync_settings.py" line="38"/>
        <location filename="../../desktop/engine/export/parley_json.py" line="143"/>
        <source>must be an object</source>
        <translation>必须是对象</translation>
    </message>
    <message>
        <location filename="../../desktop/core/assistants.py" line="191"/>
        <location filename="../../desktop/core/backup_settings.py" line="42"/>
        <location filename="../../desktop/core/desktop_settings.py" line="56"/>
        <location filename="../../desktop/core/knowledge.py" line="146"/>
        <location filename="../../desktop/core/knowledge.py" line="171"/>
        <location filename="../../desktop/core/mcp_settings.py" line="108"/>
        <location filename="../../desktop/core/memory.py" line="143"/>
        <location filename="../../desktop/core/remote_target.py" line="134"/>
        <location filename="../../desktop/core/settings.py" line="318"/>
        <location filename="../../desktop/core/sync_settings.py" line="41"/>
        <location filename="../../desktop/core/usage_settings.py" line="90"/>
        <location filename="../../desktop/core/web_search.py" line="116"/>
        <source>unknown setting (check the spelling)</source>
        <translation>未知的设置项（请检查拼写）</translation>
    </message>
    <message>
        <location filename="../../desktop/core/assistants.py" line="195"/>
        <location filename="../../desktop/core/knowledge.py" line="175"/>
        <source>must be 1-40 lowercase letters, digits, &apos;-&apos; or &apos;_&apos; (e.g. &apos;writer&apos;)</source>
        <translation>必须由 1-40 个小写字母、数字、&apos;-&apos; 或 &apos;_&apos; 组成（例如 &apos;writer&apos;）</translation>
    </message>
    <message>
        <location filename="../../desktop/core/assistants.py" line="202"/>
        <source>must be more than 0</source>
        <translation>必须大于 0</translation>
    </message>
    <message>
        <location filename="../../desktop/core/assistants.py" line="207"/>
        <source>must be at least {min_threshold}</source>
        <translation>不能小于 {min_threshold}</translation>
    </message>
    <message>
        <location filename="../../desktop/core/assistants.py" line="213"/>
        <source>must be one of: {names}, or null</source>
        <translation>必须是以下之一：{names}，或 null</translation>
    </message>
    <message>
        <location filename="../../desktop/core/assistants.py" line="256"/>
        <source>must be a list of texts</source>
        <translation>必须是文本列表</translation>
    </message>
    <message>
        <location filename="../../desktop/core/assistants.py" line="259"/>
        <source>must hold at most {n} texts</source>
        <translation>最多只能包含 {n} 条文本</translation>
    </message>
    <message>
        <location filename="../../desktop/core/assistants.py" line="262"/>
        <source>each must be at most {n} characters</source>
        <translation>每条最多 {n} 个字符</translation>
    </message>
    <message>
        <location filename="../../desktop/core/assistants.py" line="277"/>
        <location filename="../../desktop/core/knowledge.py" line="202"/>
        <location filename="../../desktop/core/mcp_settings.py" line="156"/>
        <source>{id!r} is used twice</source>
        <translation>{id!r} 被重复使用</translation>
    </message>
    <message>
        <location filename="../../desktop/core/assistants.py" line="281"/>
        <source>must be an assistant id</source>
        <translation>必须是助手 ID</translation>
    </message>
    <message>
        <location filename="../../desktop/core/assistants.py" line="285"/>
        <source>{default_id!r} is not one of the assistants</source>
        <translation>{default_id!r} 不在助手列表中</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/export/parley_json.py" line="159"/>
        <location filename="../../desktop/engine/export/parley_json.py" line="227"/>
        <source>must be text</source>
        <translation>必须是文本</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/export/parley_json.py" line="168"/>
        <source>must be an id (1 to 200 characters, no spaces around)</source>
        <translation>必须是 ID（1 到 200 个字符，首尾不能有空格）</translation>
    </message>
    <message>
        <location filename="../../desktop/core/assistants.py" line="217"/>
        <location filename="../../desktop/core/assistants.py" line="220"/>
        <location filename="../../desktop/core/assistants.py" line="223"/>
        <location filename="../../desktop/core/backup_settings.py" line="51"/>
        <location filename="../../desktop/core/desktop_settings.py" line="61"/>
        <location filename="../../desktop/core/knowledge.py" line="182"/>
        <location filename="../../desktop/core/mcp_settings.py" line="119"/>
        <location filename="../../desktop/core/remote_target.py" line="154"/>
        <location filename="../../desktop/core/sync_settings.py" line="45"/>
        <location filename="../../desktop/engine/export/parley_json.py" line="179"/>
        <source>must be true or false</source>
        <translation>必须是 true 或 false</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/export/parley_json.py" line="187"/>
        <source>must be a whole number, 0 or more</source>
        <translation>必须是大于或等于 0 的整数</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/export/parley_json.py" line="195"/>
        <source>must be a date and time (ISO 8601)</source>
        <translation>必须是日期时间（ISO 8601）</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/export/parley_json.py" line="197"/>
        <source>must include a time zone (e.g. a final Z)</source>
        <translation>必须包含时区（例如末尾的 Z）</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/export/parley_json.py" line="209"/>
        <source>must be one of: {allowed}</source>
        <translation>必须是以下之一：{allowed}</translation>
    </message>
    <message>
        <location filename="../../desktop/core/assistants.py" line="271"/>
        <location filename="../../desktop/core/knowledge.py" line="196"/>
        <location filename="../../desktop/core/mcp_settings.py" line="151"/>
        <location filename="../../desktop/core/prompts.py" line="137"/>
        <location filename="../../desktop/engine/export/parley_json.py" line="220"/>
        <source>must be a list</source>
        <translation>必须是列表</translation>
    </message>
    <message>
        <location filename="../../desktop/core/assistants.py" line="199"/>
        <location filename="../../desktop/core/knowledge.py" line="152"/>
        <location filename="../../desktop/core/knowledge.py" line="179"/>
        <location filename="../../desktop/core/prompts.py" line="169"/>
        <location filename="../../desktop/core/settings.py" line="372"/>
        <location filename="../../desktop/engine/export/parley_json.py" line="234"/>
        <source>must not be empty</source>
        <translation>不能为空</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/export/parley_json.py" line="302"/>
        <source>the id {id} is also used by messages[{other}]</source>
        <translation>ID {id} 也被 messages[{other}] 使用</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/export/parley_json.py" line="311"/>
        <location filename="../../desktop/engine/export/parley_json.py" line="331"/>
        <source>no message with the id {id} in this file</source>
        <translation>此文件中没有 ID 为 {id} 的消息</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/export/parley_json.py" line="323"/>
        <source>the messages&apos; parents form a loop ({loop})</source>
        <translation>消息的父级形成了循环（{loop}）</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/export/parley_json.py" line="343"/>
        <source>this is not a Parley conversation export</source>
        <translation>这不是 Parley 导出的对话</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/export/parley_json.py" line="346"/>
        <source>must be a whole number, 1 or more</source>
        <translation>必须是大于或等于 1 的整数</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/export/parley_json.py" line="351"/>
        <source>the file was made by a newer Parley (format version {found}; this one reads up to {known}). Update Parley to import it.</source>
        <translation>此文件由更新版本的 Parley 创建（格式版本 {found}；当前版本最高支持 {known}）。请更新 Parley 后再导入。</translation>
    </message>
    <message>
        <location filename="../../desktop/core/remote_target.py" line="71"/>
        <location filename="../../desktop/engine/export/parley_json.py" line="357"/>
        <source>is missing</source>
        <translation>缺失</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/export/markdown.py" line="92"/>
        <source>state: {state}</source>
        <translation>状态：{state}</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/export/markdown.py" line="96"/>
        <source>decision: {decision}</source>
        <translation>决定：{decision}</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/export/markdown.py" line="98"/>
        <source>{ms} ms</source>
        <translation>{ms} 毫秒</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/export/markdown.py" line="100"/>
        <location filename="../../desktop/storage/disk_space.py" line="71"/>
        <source>{size} bytes</source>
        <translation>{size} 字节</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/export/markdown.py" line="102"/>
        <source>full output: {path}</source>
        <translation>完整输出：{path}</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/export/markdown.py" line="104"/>
        <source>error: {error}</source>
        <translation>错误：{error}</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/export/markdown.py" line="110"/>
        <source>**Tool call:** `{name}`</source>
        <translation>**工具调用：** `{name}`</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/export/markdown.py" line="118"/>
        <source>No result: the tool did not run.</source>
        <translation>无结果：工具未运行。</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/export/markdown.py" line="120"/>
        <source>**Error:**</source>
        <translation>**错误：**</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/export/markdown.py" line="120"/>
        <source>**Result:**</source>
        <translation>**结果：**</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/export/markdown.py" line="126"/>
        <source>User</source>
        <translation>用户</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/export/markdown.py" line="126"/>
        <source>Assistant</source>
        <translation>助手</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/export/markdown.py" line="126"/>
        <source>System</source>
        <translation>系统</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/export/markdown.py" line="132"/>
        <source>still being written when exported</source>
        <translation>导出时仍在生成</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/export/markdown.py" line="133"/>
        <source>stopped</source>
        <translation>已停止</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/export/markdown.py" line="73"/>
        <location filename="../../desktop/engine/export/markdown.py" line="134"/>
        <source>interrupted</source>
        <translation>已中断</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/export/markdown.py" line="67"/>
        <source>pending</source>
        <translation>等待批准</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/export/markdown.py" line="68"/>
        <source>running</source>
        <translation>运行中</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/export/markdown.py" line="69"/>
        <source>done</source>
        <translation>已完成</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/export/markdown.py" line="70"/>
        <source>error</source>
        <translation>出错</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/export/markdown.py" line="71"/>
        <source>denied</source>
        <translation>已拒绝</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/export/markdown.py" line="72"/>
        <source>answered</source>
        <translation>已回复</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/export/markdown.py" line="74"/>
        <source>auto</source>
        <translation>自动允许</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/export/markdown.py" line="75"/>
        <source>approved_once</source>
        <translation>已批准一次</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/export/markdown.py" line="76"/>
        <source>always_allowed</source>
        <translation>始终允许</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/export/markdown.py" line="77"/>
        <source>disabled</source>
        <translation>已关闭</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/export/markdown.py" line="78"/>
        <source>policy</source>
        <translation>按策略</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/export/markdown.py" line="79"/>
        <source>person</source>
        <translation>由你决定</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/export/markdown.py" line="80"/>
        <source>recovery</source>
        <translation>由 Parley 决定</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/export/markdown.py" line="135"/>
        <source>failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/export/markdown.py" line="136"/>
        <source>waiting for approval</source>
        <translation>等待批准</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/export/markdown.py" line="145"/>
        <source>Reasoning</source>
        <translation>思考过程</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/export/markdown.py" line="153"/>
        <source>Error</source>
        <translation>错误</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/export/markdown.py" line="155"/>
        <source>Note:</source>
        <translation>注意：</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/export/markdown.py" line="177"/>
        <source>p. {page}</source>
        <translation>第 {page} 页</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/export/markdown.py" line="185"/>
        <location filename="../../desktop/engine/importers/chatbox.py" line="375"/>
        <location filename="../../desktop/engine/importers/chatbox.py" line="425"/>
        <location filename="../../desktop/engine/importers/chatgpt.py" line="227"/>
        <location filename="../../desktop/engine/importers/cherry.py" line="137"/>
        <location filename="../../desktop/engine/importers/run.py" line="111"/>
        <source>Untitled chat</source>
        <translation>未命名对话</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/export/markdown.py" line="209"/>
        <source>Sources:</source>
        <translation>来源：</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/export/markdown.py" line="248"/>
        <source>Exported from Parley · started {when} · {count} messages</source>
        <translation>导出自 Parley · 开始于 {when} · {count} 条消息</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/export/markdown.py" line="260"/>
        <source>Every version of every message is included.</source>
        <translation>包含每条消息的所有版本。</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/export/markdown.py" line="265"/>
        <source>Version {k} of {n}</source>
        <translation>版本 {k}/{n}</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/export/markdown.py" line="266"/>
        <source>current</source>
        <translation>当前</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/export/markdown.py" line="275"/>
        <source>Another version, replying to: “{text}”</source>
        <translation>另一个版本，回复：“{text}”</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/export/markdown.py" line="277"/>
        <source>Another version of the first message</source>
        <translation>第一条消息的另一个版本</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/turn/generation.py" line="253"/>
        <source>Something went wrong while generating the answer ({kind}).</source>
        <translation>生成回答时出错（{kind}）。</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/turn/generation.py" line="311"/>
        <source>Your memories were searched by words only: {reason}</source>
        <translation>已仅按关键词搜索你的记忆：{reason}</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/turn/search_ledger.py" line="199"/>
        <source>Parley ended this answer: the model kept asking to search your documents after this answer&apos;s searches were used up.</source>
        <translation>Parley 已结束此回答：本次回答的搜索次数已用完，但模型仍在反复请求搜索你的文档。</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/turn/generation.py" line="361"/>
        <source>Searching your documents…</source>
        <translation>正在搜索你的文档…</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/turn/generation.py" line="396"/>
        <source>Summarising earlier messages…</source>
        <translation>正在为较早的消息生成摘要…</translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/engine/turn/generation.py" line="410"/>
        <source>Reading %n image(s) with OCR…</source>
        <translation>
            <numerusform>正在用 OCR 识别 %n 张图片…</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../desktop/engine/turn/generation.py" line="493"/>
        <source>Parley stopped this answer after {steps} model steps; its last tool calls were not run.</source>
        <translation>此回答已进行 {steps} 步模型调用，Parley 已将其停止；最后的工具调用未运行。</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/turn/generation.py" line="532"/>
        <source>{error} (Parley tried {tries} times.)</source>
        <translation>{error}（Parley 已尝试 {tries} 次。）</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/turn/generation.py" line="633"/>
        <source>The model asked to use a tool ({names}), but no tools are available in this conversation, so nothing was run.</source>
        <translation>模型请求使用工具（{names}），但此对话中没有可用的工具，因此未运行任何工具。</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/turn/unsaved.py" line="99"/>
        <source>Not saved yet: the disk holding {folder} is full. The answer stays here, and Parley saves it once there is room.</source>
        <translation>尚未保存：{folder} 所在的磁盘已满。回答会保留在这里，有空间后 Parley 会自动保存。</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/turn/unsaved.py" line="103"/>
        <source>Not saved yet: the disk holding {folder} is full ({free} free). The answer stays here, and Parley saves it once there is room.</source>
        <translation>尚未保存：{folder} 所在的磁盘已满（剩余 {free}）。回答会保留在这里，有空间后 Parley 会自动保存。</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/turn/unsaved.py" line="106"/>
        <source>Not saved yet: {error} Parley tries again at the next save.</source>
        <translation>尚未保存：{error} Parley 会在下次保存时重试。</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/library.py" line="72"/>
        <source>This is not a Parley JSON file (line {line}, column {column}: {problem}).</source>
        <translation>这不是 Parley JSON 文件（第 {line} 行，第 {column} 列：{problem}）。</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/notices.py" line="87"/>
        <source>the answer could not be finished</source>
        <translation>回答未能完成</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/notices.py" line="88"/>
        <source>failed: %1</source>
        <translation>失败：%1</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/notices.py" line="90"/>
        <source>The answer is ready.</source>
        <translation>回答已就绪。</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/notices.py" line="102"/>
        <source>needs your approval to run %1</source>
        <translation>需要你批准才能运行 %1</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/turn/versions.py" line="134"/>
        <source>Only answers and your own messages can be regenerated.</source>
        <translation>只能重新生成回答或你自己的消息。</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/turn/versions.py" line="145"/>
        <source>Choose a model to answer with.</source>
        <translation>请选择用于回答的模型。</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/turn/versions.py" line="150"/>
        <source>Only your own messages can be edited.</source>
        <translation>只能编辑你自己的消息。</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/turn/versions.py" line="156"/>
        <source>Only an answer can be continued.</source>
        <translation>只能继续生成回答。</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/turn/versions.py" line="160"/>
        <source>Only a stopped, interrupted or broken-off answer can be continued; this one is {status}.</source>
        <translation>只能继续已停止、已中断或中途出错的回答；此回答的状态为 {status}。</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/turn/versions.py" line="165"/>
        <source>This answer does not say which model wrote it.</source>
        <translation>此回答没有注明由哪个模型生成。</translation>
    </message>
    <message>
        <location filename="../../desktop/render/rules.py" line="157"/>
        <source>Mermaid</source>
        <translation>Mermaid</translation>
    </message>
    <message>
        <location filename="../../desktop/render/rules.py" line="159"/>
        <location filename="../../desktop/render/rules.py" line="173"/>
        <source>Code</source>
        <translation>代码</translation>
    </message>
    <message>
        <location filename="../../desktop/render/rules.py" line="183"/>
        <source>Math</source>
        <translation>公式</translation>
    </message>
    <message>
        <location filename="../../desktop/render/rules.py" line="229"/>
        <source>image</source>
        <translation>图片</translation>
    </message>
    <message>
        <location filename="../../desktop/render/unformatted.py" line="49"/>
        <source>The rest is shown as plain text: it is too long or complex to format.</source>
        <translation>其余内容以纯文本显示：内容过长或过于复杂，无法格式化。</translation>
    </message>
    <message>
        <location filename="../../desktop/render/unformatted.py" line="51"/>
        <source>Shown as plain text: it is too long or complex to format.</source>
        <translation>以纯文本显示：内容过长或过于复杂，无法格式化。</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/provider_draft.py" line="67"/>
        <source>Extra JSON body is not valid JSON: %1 (line %2, column %3).</source>
        <translation>额外 JSON 请求体不是有效的 JSON：%1（第 %2 行，第 %3 列）。</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/provider_draft.py" line="75"/>
        <source>Extra JSON body must be a JSON object, such as {&quot;top_k&quot;: 40}.</source>
        <translation>额外 JSON 请求体必须是 JSON 对象，例如 {&quot;top_k&quot;: 40}。</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/provider_draft.py" line="88"/>
        <source>A custom header has a value but no name.</source>
        <translation>有一个自定义请求头填写了值但没有名称。</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/provider_draft.py" line="91"/>
        <source>The custom header %1 is listed twice.</source>
        <translation>自定义请求头 %1 重复了。</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/provider_draft.py" line="117"/>
        <source>Custom header %1 %2.</source>
        <translation>自定义请求头 %1：%2。</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/provider_draft.py" line="119"/>
        <source>Capabilities of %1: %2.</source>
        <translation>%1 的能力：%2。</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/provider_draft.py" line="122"/>
        <source>%1 %2.</source>
        <translation>%1：%2。</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/provider_draft.py" line="130"/>
        <source>Give the provider a name.</source>
        <translation>请为服务商填写名称。</translation>
    </message>
    <message>
        <location filename="../../desktop/core/attachments.py" line="52"/>
        <source>{name}: {problem}</source>
        <translation>{name}：{problem}</translation>
    </message>
    <message>
        <location filename="../../desktop/core/desktop_settings.py" line="44"/>
        <source>{value!r} is not one key combination (e.g. &quot;Ctrl+Alt+Space&quot;), or &quot;&quot;</source>
        <translation>{value!r} 既不是单个组合键（例如 &quot;Ctrl+Alt+Space&quot;），也不是 &quot;&quot;</translation>
    </message>
    <message>
        <location filename="../../desktop/core/errors.py" line="37"/>
        <location filename="../../desktop/core/mcp_entry.py" line="105"/>
        <source>{field}: {problem}</source>
        <translation>{field}：{problem}</translation>
    </message>
    <message>
        <location filename="../../desktop/core/mcp_settings.py" line="92"/>
        <source>is not a valid {what}</source>
        <translation>不是有效的 {what}</translation>
    </message>
    <message>
        <location filename="../../desktop/core/mcp_settings.py" line="95"/>
        <location filename="../../desktop/core/settings.py" line="440"/>
        <source>must be on one line</source>
        <translation>必须写在一行内</translation>
    </message>
    <message>
        <location filename="../../desktop/core/mcp_settings.py" line="111"/>
        <source>must be 1-40 lowercase letters, digits, &apos;-&apos; or &apos;_&apos;</source>
        <translation>必须由 1-40 个小写字母、数字、&apos;-&apos; 或 &apos;_&apos; 组成</translation>
    </message>
    <message>
        <location filename="../../desktop/core/mcp_settings.py" line="116"/>
        <source>must be one of: stdio, http</source>
        <translation>必须是以下之一：stdio、http</translation>
    </message>
    <message>
        <location filename="../../desktop/core/mcp_settings.py" line="123"/>
        <source>must name the program to run</source>
        <translation>必须指定要运行的程序</translation>
    </message>
    <message>
        <location filename="../../desktop/core/knowledge.py" line="135"/>
        <location filename="../../desktop/core/mcp_settings.py" line="126"/>
        <source>must be a list of strings</source>
        <translation>必须是字符串列表</translation>
    </message>
    <message>
        <location filename="../../desktop/core/knowledge.py" line="143"/>
        <source>must be an object or null</source>
        <translation>必须是对象或 null</translation>
    </message>
    <message>
        <location filename="../../desktop/core/knowledge.py" line="149"/>
        <source>must be a provider id</source>
        <translation>必须是服务商 ID</translation>
    </message>
    <message>
        <location filename="../../desktop/core/knowledge.py" line="161"/>
        <source>must be a whole number from 1 to {most}, or null</source>
        <translation>必须是 1 到 {most} 之间的整数，或 null</translation>
    </message>
    <message>
        <location filename="../../desktop/core/mcp_settings.py" line="130"/>
        <source>must not contain a NUL character</source>
        <translation>不能包含 NUL 字符</translation>
    </message>
    <message>
        <location filename="../../desktop/core/mcp_settings.py" line="139"/>
        <location filename="../../desktop/core/remote_target.py" line="82"/>
        <location filename="../../desktop/core/settings.py" line="324"/>
        <location filename="../../desktop/core/web_search.py" line="72"/>
        <source>must be an http:// or https:// URL with a host</source>
        <translation>必须是带主机名的 http:// 或 https:// URL</translation>
    </message>
    <message>
        <location filename="../../desktop/core/mcp_settings.py" line="144"/>
        <source>HTTP header name</source>
        <translation>HTTP 请求头名称</translation>
    </message>
    <message>
        <location filename="../../desktop/core/mcp_settings.py" line="166"/>
        <source>must be a command line&apos;s sha256 hash</source>
        <translation>必须是命令行的 sha256 哈希值</translation>
    </message>
    <message>
        <location filename="../../desktop/core/ocr_settings.py" line="27"/>
        <source>must be a &quot;provider/model&quot; string or null, not {type}</source>
        <translation>必须是 &quot;provider/model&quot; 格式的字符串或 null，而不是 {type}</translation>
    </message>
    <message>
        <location filename="../../desktop/core/settings.py" line="293"/>
        <source>a list of model ids</source>
        <translation>模型 ID 列表</translation>
    </message>
    <message>
        <location filename="../../desktop/core/settings.py" line="294"/>
        <source>a list</source>
        <translation>列表</translation>
    </message>
    <message>
        <location filename="../../desktop/core/settings.py" line="295"/>
        <source>a number</source>
        <translation>数字</translation>
    </message>
    <message>
        <location filename="../../desktop/core/settings.py" line="296"/>
        <location filename="../../desktop/core/web_search.py" line="66"/>
        <location filename="../../desktop/core/web_search.py" line="87"/>
        <source>a string</source>
        <translation>字符串</translation>
    </message>
    <message>
        <location filename="../../desktop/core/settings.py" line="297"/>
        <location filename="../../desktop/core/web_search.py" line="99"/>
        <source>a whole number</source>
        <translation>整数</translation>
    </message>
    <message>
        <location filename="../../desktop/core/settings.py" line="298"/>
        <source>an object of header names to values</source>
        <translation>请求头名称到值的对象</translation>
    </message>
    <message>
        <location filename="../../desktop/core/settings.py" line="299"/>
        <location filename="../../desktop/core/web_search.py" line="113"/>
        <source>an object</source>
        <translation>对象</translation>
    </message>
    <message>
        <location filename="../../desktop/core/settings.py" line="300"/>
        <location filename="../../desktop/core/web_search.py" line="132"/>
        <source>true or false</source>
        <translation>布尔值（true 或 false）</translation>
    </message>
    <message>
        <location filename="../../desktop/core/settings.py" line="301"/>
        <source>true, false or null</source>
        <translation>布尔值或 null（true、false 或 null）</translation>
    </message>
    <message>
        <location filename="../../desktop/core/settings.py" line="309"/>
        <location filename="../../desktop/core/settings.py" line="417"/>
        <location filename="../../desktop/core/web_search.py" line="59"/>
        <source>must be {what}, not {type}</source>
        <translation>必须是{what}，而不是 {type}</translation>
    </message>
    <message>
        <location filename="../../desktop/core/settings.py" line="350"/>
        <source>must be 1-40 lowercase letters, digits, &apos;-&apos; or &apos;_&apos; (e.g. &apos;local&apos;)</source>
        <translation>必须由 1-40 个小写字母、数字、&apos;-&apos; 或 &apos;_&apos; 组成（例如 &apos;local&apos;）</translation>
    </message>
    <message>
        <location filename="../../desktop/core/settings.py" line="360"/>
        <source>unknown kind {kind} (one of: {choices})</source>
        <translation>未知的类型 {kind}（可选：{choices}）</translation>
    </message>
    <message>
        <location filename="../../desktop/core/settings.py" line="381"/>
        <source>{model} is not in models</source>
        <translation>{model} 不在模型列表中</translation>
    </message>
    <message>
        <location filename="../../desktop/core/settings.py" line="414"/>
        <source>a whole number of seconds ({low}-{high})</source>
        <translation>整数秒数（{low}-{high}）</translation>
    </message>
    <message>
        <location filename="../../desktop/core/settings.py" line="422"/>
        <source>must be between {low} and {high} seconds, not {value}</source>
        <translation>必须介于 {low} 到 {high} 秒之间，而不是 {value}</translation>
    </message>
    <message>
        <location filename="../../desktop/core/settings.py" line="437"/>
        <source>is not a valid HTTP header name</source>
        <translation>不是有效的 HTTP 请求头名称</translation>
    </message>
    <message>
        <location filename="../../desktop/core/settings.py" line="457"/>
        <source>must be between 256 and 100000000</source>
        <translation>必须介于 256 和 100000000 之间</translation>
    </message>
    <message>
        <location filename="../../desktop/core/settings.py" line="470"/>
        <source>must be one of: system, none, custom</source>
        <translation>必须是以下之一：system、none、custom</translation>
    </message>
    <message>
        <location filename="../../desktop/core/settings.py" line="477"/>
        <source>must be a proxy URL such as http://host:3128</source>
        <translation>必须是代理 URL，例如 http://host:3128</translation>
    </message>
    <message>
        <location filename="../../desktop/core/settings.py" line="496"/>
        <source>must be one of: auto, ask, off</source>
        <translation>必须是以下之一：auto、ask、off</translation>
    </message>
    <message>
        <location filename="../../desktop/core/settings.py" line="504"/>
        <source>must be the tool definition&apos;s sha256 hash</source>
        <translation>必须是工具定义的 sha256 哈希值</translation>
    </message>
    <message>
        <location filename="../../desktop/core/settings.py" line="511"/>
        <source>(top level)</source>
        <translation>（顶层）</translation>
    </message>
    <message>
        <location filename="../../desktop/core/settings.py" line="546"/>
        <source>{version} is newer than this Parley understands</source>
        <translation>{version} 高于当前 Parley 支持的版本</translation>
    </message>
    <message>
        <location filename="../../desktop/core/settings.py" line="554"/>
        <source>{id} is used twice</source>
        <translation>{id} 被重复使用</translation>
    </message>
    <message>
        <location filename="../../desktop/core/settings.py" line="564"/>
        <source>must be one of: system, light, dark</source>
        <translation>必须是以下之一：system、light、dark</translation>
    </message>
    <message>
        <location filename="../../desktop/core/settings.py" line="569"/>
        <source>must be between 6 and 48</source>
        <translation>必须介于 6 和 48 之间</translation>
    </message>
    <message>
        <location filename="../../desktop/core/assistants.py" line="183"/>
        <location filename="../../desktop/core/assistants.py" line="229"/>
        <location filename="../../desktop/core/settings.py" line="591"/>
        <location filename="../../desktop/core/settings.py" line="601"/>
        <source>must be one of: {names}</source>
        <translation>必须是以下之一：{names}</translation>
    </message>
    <message>
        <location filename="../../desktop/core/usage_settings.py" line="46"/>
        <source>must be a &quot;provider/model&quot; string, not {type}</source>
        <translation>必须是 &quot;provider/model&quot; 格式的字符串，而不是 {type}</translation>
    </message>
    <message>
        <location filename="../../desktop/core/usage_settings.py" line="52"/>
        <source>{value!r} is not a &quot;provider/model&quot; reference (e.g. &quot;openai/gpt-4o-mini&quot;)</source>
        <translation>{value!r} 不是 &quot;provider/model&quot; 格式的模型引用（例如 &quot;openai/gpt-4o-mini&quot;）</translation>
    </message>
    <message>
        <location filename="../../desktop/core/usage_settings.py" line="76"/>
        <source>must be between 0 and {max_price:,.0f} per million tokens</source>
        <translation>每百万 Token 的价格必须介于 0 到 {max_price:,.0f} 之间</translation>
    </message>
    <message>
        <location filename="../../desktop/core/usage_settings.py" line="86"/>
        <location filename="../../desktop/core/usage_settings.py" line="105"/>
        <source>must be an object, not {type}</source>
        <translation>必须是对象，而不是 {type}</translation>
    </message>
    <message>
        <location filename="../../desktop/core/usage_settings.py" line="93"/>
        <source>is required (currency units per 1M tokens)</source>
        <translation>必须填写（每 1M Token 的价格，以货币单位计）</translation>
    </message>
    <message>
        <location filename="../../desktop/core/usage_settings.py" line="128"/>
        <source>must be a three-letter currency code such as &quot;USD&quot;</source>
        <translation>必须是三个字母的货币代码，例如 &quot;USD&quot;</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/attachments/damage.py" line="25"/>
        <source>a PNG image</source>
        <translation>PNG 图片</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/attachments/damage.py" line="26"/>
        <source>a JPEG image</source>
        <translation>JPEG 图片</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/attachments/damage.py" line="27"/>
        <source>a WebP image</source>
        <translation>WebP 图片</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/attachments/damage.py" line="28"/>
        <source>a text file</source>
        <translation>文本文件</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/attachments/damage.py" line="29"/>
        <location filename="../../desktop/engine/attachments/sniff.py" line="59"/>
        <source>a Word document</source>
        <translation>Word 文档</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/attachments/damage.py" line="30"/>
        <location filename="../../desktop/engine/attachments/sniff.py" line="60"/>
        <location filename="../../desktop/engine/attachments/sniff.py" line="213"/>
        <source>a PowerPoint presentation</source>
        <translation>PowerPoint 演示文稿</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/attachments/damage.py" line="31"/>
        <location filename="../../desktop/engine/attachments/sniff.py" line="199"/>
        <source>a PDF document</source>
        <translation>PDF 文档</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/attachments/damage.py" line="32"/>
        <source>an Office document</source>
        <translation>Office 文档</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/attachments/damage.py" line="56"/>
        <source>the file is damaged and cannot be read as {format}</source>
        <translation>文件已损坏，无法作为 {format}读取</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/attachments/damage.py" line="65"/>
        <source>the file is damaged, or it is not really {format}</source>
        <translation>文件已损坏，或者它其实不是 {format}</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/attachments/extract.py" line="61"/>
        <source>{format} has no text to extract</source>
        <translation>{format}中没有可提取的文字</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/attachments/extract.py" line="68"/>
        <source>too large to read into memory</source>
        <translation>太大，无法读入内存</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/attachments/formats.py" line="39"/>
        <source>PNG image</source>
        <translation>PNG 图片</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/attachments/formats.py" line="40"/>
        <source>JPEG image</source>
        <translation>JPEG 图片</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/attachments/formats.py" line="41"/>
        <source>WebP image</source>
        <translation>WebP 图片</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/attachments/formats.py" line="42"/>
        <source>text file</source>
        <translation>文本文件</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/attachments/formats.py" line="43"/>
        <source>Word document</source>
        <translation>Word 文档</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/attachments/formats.py" line="44"/>
        <location filename="../../desktop/engine/attachments/formats.py" line="45"/>
        <source>PowerPoint presentation</source>
        <translation>PowerPoint 演示文稿</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/attachments/formats.py" line="46"/>
        <source>PDF document</source>
        <translation>PDF 文档</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/attachments/image_headers.py" line="40"/>
        <source>the file ends too early</source>
        <translation>文件提前结束</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/attachments/image_headers.py" line="49"/>
        <source>no PNG signature</source>
        <translation>没有 PNG 签名</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/attachments/image_headers.py" line="52"/>
        <source>the first chunk is not IHDR</source>
        <translation>第一个数据块不是 IHDR</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/attachments/image_headers.py" line="56"/>
        <source>the IHDR checksum is wrong</source>
        <translation>IHDR 校验和错误</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/attachments/image_headers.py" line="61"/>
        <source>zero or out-of-range size</source>
        <translation>尺寸为零或超出范围</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/attachments/image_headers.py" line="63"/>
        <source>unknown colour type or bit depth</source>
        <translation>未知的颜色类型或位深度</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/attachments/image_headers.py" line="65"/>
        <source>unknown compression, filter or interlace method</source>
        <translation>未知的压缩、过滤或隔行扫描方式</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/attachments/image_headers.py" line="68"/>
        <source>the file is truncated (no IEND chunk at the end)</source>
        <translation>文件不完整（末尾没有 IEND 数据块）</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/attachments/image_headers.py" line="76"/>
        <source>no JPEG start-of-image marker</source>
        <translation>没有 JPEG 图像起始标记</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/attachments/image_headers.py" line="79"/>
        <source>garbage where a marker was expected</source>
        <translation>应为标记的位置出现了无效数据</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/attachments/image_headers.py" line="86"/>
        <source>no frame header before the image data</source>
        <translation>图像数据之前没有帧头</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/attachments/image_headers.py" line="89"/>
        <source>a segment has an impossible length</source>
        <translation>某个段的长度不合理</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/attachments/image_headers.py" line="93"/>
        <location filename="../../desktop/engine/attachments/image_headers.py" line="98"/>
        <source>the frame header is too short</source>
        <translation>帧头太短</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/attachments/image_headers.py" line="96"/>
        <source>zero size or no colour components</source>
        <translation>尺寸为零或没有颜色分量</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/attachments/image_headers.py" line="101"/>
        <source>too many segments before the frame header</source>
        <translation>帧头之前的段太多</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/attachments/image_headers.py" line="112"/>
        <source>no RIFF/WEBP header</source>
        <translation>没有 RIFF/WEBP 文件头</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/attachments/image_headers.py" line="114"/>
        <source>the file is truncated</source>
        <translation>文件不完整</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/attachments/image_headers.py" line="118"/>
        <source>the first chunk runs past the end of the file</source>
        <translation>第一个数据块超出了文件末尾</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/attachments/image_headers.py" line="122"/>
        <source>the VP8 frame is not a key frame</source>
        <translation>VP8 帧不是关键帧</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/attachments/image_headers.py" line="127"/>
        <source>no VP8L signature</source>
        <translation>没有 VP8L 签名</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/attachments/image_headers.py" line="130"/>
        <source>unknown VP8L version</source>
        <translation>未知的 VP8L 版本</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/attachments/image_headers.py" line="134"/>
        <source>the VP8X chunk is too short</source>
        <translation>VP8X 数据块太短</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/attachments/image_headers.py" line="138"/>
        <source>no VP8, VP8L or VP8X chunk</source>
        <translation>没有 VP8、VP8L 或 VP8X 数据块</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/attachments/image_headers.py" line="140"/>
        <source>zero size</source>
        <translation>尺寸为零</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/attachments/ooxml.py" line="40"/>
        <source>refused: its XML declares a DOCTYPE, which no Office file has</source>
        <translation>已拒绝，因为其 XML 声明了 DOCTYPE，正常的 Office 文件不会这样</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/attachments/pdf_text.py" line="81"/>
        <source>is protected by a password</source>
        <translation>受密码保护</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/attachments/pdf_text.py" line="103"/>
        <source>has no text layer (a scanned PDF?); attach the pages as images instead</source>
        <translation>没有文字层（可能是扫描版 PDF）；请改为以图片形式添加页面</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/attachments/plain_text.py" line="52"/>
        <source>could not be read as text (unknown character encoding)</source>
        <translation>无法作为文本读取（未知的字符编码）</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/attachments/service.py" line="82"/>
        <source>changed while it was being attached; try again</source>
        <translation>在添加过程中发生了变化，请重试</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/attachments/service.py" line="161"/>
        <source>is an image, not a document</source>
        <translation>是图片，不是文档</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/attachments/service.py" line="194"/>
        <source>is a folder, not a file</source>
        <translation>是文件夹，不是文件</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/attachments/service.py" line="196"/>
        <location filename="../../desktop/engine/attachments/service.py" line="207"/>
        <location filename="../../desktop/engine/knowledge/documents.py" line="37"/>
        <source>is not a regular file</source>
        <translation>不是普通文件</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/attachments/service.py" line="210"/>
        <source>is not a text file</source>
        <translation>不是文本文件</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/attachments/service.py" line="228"/>
        <location filename="../../desktop/engine/knowledge/documents.py" line="48"/>
        <source>the file no longer exists</source>
        <translation>文件已不存在</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/attachments/service.py" line="230"/>
        <location filename="../../desktop/engine/knowledge/documents.py" line="50"/>
        <source>cannot be read (permission denied)</source>
        <translation>无法读取（权限不足）</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/attachments/service.py" line="231"/>
        <location filename="../../desktop/engine/knowledge/documents.py" line="52"/>
        <source>cannot be read ({reason})</source>
        <translation>无法读取（{reason}）</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/attachments/service.py" line="236"/>
        <source>its stored copy is missing</source>
        <translation>已保存的副本丢失</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/attachments/service.py" line="237"/>
        <source>its stored copy cannot be read ({reason})</source>
        <translation>无法读取已保存的副本（{reason}）</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/attachments/sniff.py" line="43"/>
        <source>only PNG, JPEG and WebP images are supported</source>
        <translation>仅支持 PNG、JPEG 和 WebP 图片</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/attachments/sniff.py" line="49"/>
        <location filename="../../desktop/engine/attachments/sniff.py" line="50"/>
        <source>a HEIC image</source>
        <translation>HEIC 图片</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/attachments/sniff.py" line="51"/>
        <source>a HEIF image</source>
        <translation>HEIF 图片</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/attachments/sniff.py" line="53"/>
        <source>an AVIF image</source>
        <translation>AVIF 图片</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/attachments/sniff.py" line="61"/>
        <source>an Excel workbook</source>
        <translation>Excel 工作簿</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/attachments/sniff.py" line="91"/>
        <source>only PNG, JPEG and WebP images are supported (this is {format})</source>
        <translation>仅支持 PNG、JPEG 和 WebP 图片（此文件是 {format}）</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/attachments/sniff.py" line="101"/>
        <source>not a valid {format}</source>
        <translation>不是有效的 {format}</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/attachments/sniff.py" line="108"/>
        <location filename="../../desktop/engine/attachments/sniff.py" line="129"/>
        <source>this type of file is not supported</source>
        <translation>不支持此类型的文件</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/attachments/sniff.py" line="117"/>
        <source>not a valid {format} ({reason})</source>
        <translation>不是有效的 {format}（{reason}）</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/attachments/sniff.py" line="133"/>
        <source>not a text file (it contains binary data)</source>
        <translation>不是文本文件（包含二进制数据）</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/attachments/sniff.py" line="206"/>
        <source>a ZIP archive</source>
        <translation>ZIP 压缩包</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/attachments/sniff.py" line="211"/>
        <location filename="../../desktop/engine/attachments/sniff.py" line="218"/>
        <source>an Office 97-2003 file</source>
        <translation>Office 97-2003 文件</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/attachments/sniff.py" line="215"/>
        <source>a Word 97-2003 document (.doc)</source>
        <translation>Word 97-2003 文档（.doc）</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/attachments/sniff.py" line="217"/>
        <source>an Excel 97-2003 workbook (.xls)</source>
        <translation>Excel 97-2003 工作簿（.xls）</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/attachments/sniff.py" line="234"/>
        <source>a GIF image</source>
        <translation>GIF 图片</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/attachments/sniff.py" line="236"/>
        <source>a BMP image</source>
        <translation>BMP 图片</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/attachments/sniff.py" line="238"/>
        <source>a TIFF image</source>
        <translation>TIFF 图片</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/attachments/sniff.py" line="248"/>
        <source>the name says {claimed} but the content is {actual}</source>
        <translation>文件名表明是 {claimed}，但内容是 {actual}</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/attachments/validate.py" line="25"/>
        <source>larger than the {limit} MiB limit for images</source>
        <translation>超过了图片 {limit} MiB 的大小上限</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/attachments/validate.py" line="27"/>
        <source>larger than the {limit} MiB limit for documents</source>
        <translation>超过了文档 {limit} MiB 的大小上限</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/attachments/validate.py" line="34"/>
        <location filename="../../desktop/engine/knowledge/scanner.py" line="142"/>
        <source>the file is empty</source>
        <translation>文件为空</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/attachments/zip_guard.py" line="88"/>
        <source>refused: a part of it is compressed {ratio} to 1, which only a zip bomb does</source>
        <translation>已拒绝，因为其中一部分的压缩比高达 {ratio}:1，只有 ZIP 炸弹才会这样</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/attachments/zip_guard.py" line="97"/>
        <source>refused: it would unpack to more than the {limit} MiB limit</source>
        <translation>已拒绝，因为解压后会超过 {limit} MiB 的上限</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/context/summariser.py" line="78"/>
        <source>The model returned an empty summary.</source>
        <translation>模型返回了空摘要。</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/ocr/local_engine.py" line="100"/>
        <source>The local OCR engine gave an answer Parley cannot read ({error}).</source>
        <translation>本地 OCR 引擎返回了 Parley 无法解析的结果（{error}）。</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/ocr/local_engine.py" line="113"/>
        <source>local engine</source>
        <translation>本地引擎</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/ocr/local_engine.py" line="135"/>
        <source>The local OCR engine is not installed ({command}).</source>
        <translation>本地 OCR 引擎未安装（{command}）。</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/ocr/local_engine.py" line="154"/>
        <source>The local OCR engine did not finish within {seconds:g} s and was stopped.</source>
        <translation>本地 OCR 引擎未在 {seconds:g} 秒内完成，已被停止。</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/ocr/local_engine.py" line="163"/>
        <source>exit code {code}</source>
        <translation>退出码 {code}</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/ocr/local_engine.py" line="164"/>
        <source>The local OCR engine failed: {reason}</source>
        <translation>本地 OCR 引擎出错：{reason}</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/ocr/service.py" line="38"/>
        <source>Settings → OCR</source>
        <translation>设置 → 文字识别 (OCR)</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/ocr/service.py" line="47"/>
        <source>This model cannot see images, and Parley has no OCR to read them: choose an OCR model in {place}, or install Parley&apos;s local OCR engine: {command}. Nothing was sent.</source>
        <translation>此模型无法识别图片，Parley 也没有可用的 OCR：请在“{place}”中选择 OCR 模型，或安装 Parley 的本地 OCR 引擎：{command}。消息未发送。</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/ocr/service.py" line="158"/>
        <source>The OCR model {model} could not read {name}: {error} (choose another OCR model, or “None — use the local engine”, in {place}).</source>
        <translation>OCR 模型 {model} 无法识别 {name}：{error}（请在“{place}”中选择其他 OCR 模型，或选择“无 — 使用本地引擎”）。</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/settings_service.py" line="211"/>
        <source>no provider with id {id}</source>
        <translation>没有 ID 为 {id} 的服务商</translation>
    </message>
    <message>
        <location filename="../../desktop/providers/anthropic/adapter.py" line="53"/>
        <source>check the base URL (for Anthropic it is https://api.anthropic.com)</source>
        <translation>请检查 API 地址（Anthropic 的地址是 https://api.anthropic.com）</translation>
    </message>
    <message>
        <location filename="../../desktop/providers/anthropic/adapter.py" line="55"/>
        <source>Anthropic&apos;s API has no embedding models; choose another provider for this library</source>
        <translation>Anthropic 的 API 不提供嵌入模型；请为此知识库选择其他服务商</translation>
    </message>
    <message>
        <location filename="../../desktop/providers/anthropic/adapter.py" line="93"/>
        <location filename="../../desktop/providers/gemini/models.py" line="120"/>
        <location filename="../../desktop/providers/gemini/models.py" line="123"/>
        <location filename="../../desktop/providers/ollama/models.py" line="18"/>
        <location filename="../../desktop/providers/wire_common.py" line="134"/>
        <source>The server&apos;s model list was not in the expected format</source>
        <translation>服务器返回的模型列表格式不符合预期</translation>
    </message>
    <message>
        <location filename="../../desktop/providers/anthropic/stream.py" line="83"/>
        <location filename="../../desktop/providers/http_errors.py" line="49"/>
        <source>The server is overloaded</source>
        <translation>服务器过载</translation>
    </message>
    <message>
        <location filename="../../desktop/providers/anthropic/stream.py" line="84"/>
        <location filename="../../desktop/providers/http_errors.py" line="48"/>
        <source>The server is rate limiting requests</source>
        <translation>服务器正在限制请求频率</translation>
    </message>
    <message>
        <location filename="../../desktop/providers/anthropic/stream.py" line="85"/>
        <location filename="../../desktop/providers/http_errors.py" line="223"/>
        <source>The server had an internal error</source>
        <translation>服务器内部错误</translation>
    </message>
    <message>
        <location filename="../../desktop/providers/anthropic/stream.py" line="86"/>
        <location filename="../../desktop/providers/retry.py" line="66"/>
        <source>The server timed out</source>
        <translation>服务器超时</translation>
    </message>
    <message>
        <location filename="../../desktop/providers/anthropic/stream.py" line="87"/>
        <location filename="../../desktop/providers/gemini/adapter.py" line="74"/>
        <location filename="../../desktop/providers/http_errors.py" line="41"/>
        <location filename="../../desktop/providers/http_errors.py" line="155"/>
        <source>The server refused the API key</source>
        <translation>服务器拒绝了 API 密钥</translation>
    </message>
    <message>
        <location filename="../../desktop/providers/anthropic/stream.py" line="88"/>
        <location filename="../../desktop/providers/http_errors.py" line="43"/>
        <source>The server denied access</source>
        <translation>服务器拒绝访问</translation>
    </message>
    <message>
        <location filename="../../desktop/providers/anthropic/stream.py" line="90"/>
        <location filename="../../desktop/providers/http_errors.py" line="44"/>
        <source>The server does not know this address or model</source>
        <translation>服务器无法识别此地址或模型</translation>
    </message>
    <message>
        <location filename="../../desktop/providers/anthropic/stream.py" line="94"/>
        <location filename="../../desktop/providers/http_errors.py" line="46"/>
        <source>The request is too large for the server</source>
        <translation>请求过大，服务器无法处理</translation>
    </message>
    <message>
        <location filename="../../desktop/providers/anthropic/stream.py" line="95"/>
        <source>The account has a billing problem</source>
        <translation>账户存在计费问题</translation>
    </message>
    <message>
        <location filename="../../desktop/providers/anthropic/stream.py" line="103"/>
        <location filename="../../desktop/providers/gemini/stream.py" line="64"/>
        <location filename="../../desktop/providers/http_errors.py" line="36"/>
        <source>unknown error</source>
        <translation>未知错误</translation>
    </message>
    <message>
        <location filename="../../desktop/providers/anthropic/stream.py" line="105"/>
        <location filename="../../desktop/providers/openai_responses/stream.py" line="250"/>
        <location filename="../../desktop/providers/openai_responses/stream.py" line="275"/>
        <source>The server reported an error</source>
        <translation>服务器报告了错误</translation>
    </message>
    <message>
        <location filename="../../desktop/providers/anthropic/stream.py" line="108"/>
        <location filename="../../desktop/providers/openai_responses/stream.py" line="65"/>
        <source>{words}: {message}</source>
        <translation>{words}：{message}</translation>
    </message>
    <message>
        <location filename="../../desktop/providers/wire_common.py" line="94"/>
        <source>The server sent a malformed stream event (not JSON): {preview}</source>
        <translation>服务器发送了格式错误的流事件（不是 JSON）：{preview}</translation>
    </message>
    <message>
        <location filename="../../desktop/providers/wire_common.py" line="99"/>
        <source>The server sent a malformed stream event (not an object)</source>
        <translation>服务器发送了格式错误的流事件（不是对象）</translation>
    </message>
    <message>
        <location filename="../../desktop/providers/wire_common.py" line="106"/>
        <source>The server&apos;s answer was not a JSON object</source>
        <translation>服务器的响应不是 JSON 对象</translation>
    </message>
    <message>
        <location filename="../../desktop/providers/anthropic/stream.py" line="364"/>
        <source>The server&apos;s answer contained no content</source>
        <translation>服务器的响应中没有内容</translation>
    </message>
    <message>
        <location filename="../../desktop/providers/gemini/adapter.py" line="46"/>
        <source>check the base URL (https://generativelanguage.googleapis.com)</source>
        <translation>请检查 API 地址（https://generativelanguage.googleapis.com）</translation>
    </message>
    <message>
        <location filename="../../desktop/providers/gemini/adapter.py" line="76"/>
        <location filename="../../desktop/providers/http_errors.py" line="217"/>
        <source>The server requires an API key</source>
        <translation>服务器需要 API 密钥</translation>
    </message>
    <message>
        <location filename="../../desktop/providers/gemini/adapter.py" line="80"/>
        <location filename="../../desktop/providers/http_errors.py" line="227"/>
        <source>{words} ({status}): {detail}</source>
        <translation>{words}（{status}）：{detail}</translation>
    </message>
    <message>
        <location filename="../../desktop/providers/gemini/adapter.py" line="84"/>
        <location filename="../../desktop/providers/http_errors.py" line="231"/>
        <source>{words} ({status})</source>
        <translation>{words}（{status}）</translation>
    </message>
    <message>
        <location filename="../../desktop/providers/wire_common.py" line="116"/>
        <source>The server reported an error: {message}</source>
        <translation>服务器报告了错误：{message}</translation>
    </message>
    <message>
        <location filename="../../desktop/providers/gemini/stream.py" line="69"/>
        <location filename="../../desktop/providers/gemini/stream.py" line="84"/>
        <source>it was flagged by Gemini&apos;s safety filters</source>
        <translation>它被 Gemini 的安全过滤器拦截</translation>
    </message>
    <message>
        <location filename="../../desktop/providers/gemini/stream.py" line="70"/>
        <source>it too closely repeated existing (possibly copyrighted) material</source>
        <translation>它与已有的（可能受版权保护的）内容过于相似</translation>
    </message>
    <message>
        <location filename="../../desktop/providers/gemini/stream.py" line="71"/>
        <source>it was in a language Gemini does not support</source>
        <translation>它使用了 Gemini 不支持的语言</translation>
    </message>
    <message>
        <location filename="../../desktop/providers/gemini/stream.py" line="72"/>
        <source>it contained terms on a blocklist</source>
        <translation>它包含屏蔽列表中的词语</translation>
    </message>
    <message>
        <location filename="../../desktop/providers/gemini/stream.py" line="73"/>
        <location filename="../../desktop/providers/gemini/stream.py" line="86"/>
        <source>it may contain prohibited content</source>
        <translation>它可能包含违禁内容</translation>
    </message>
    <message>
        <location filename="../../desktop/providers/gemini/stream.py" line="74"/>
        <source>it may contain sensitive personal information</source>
        <translation>它可能包含敏感的个人信息</translation>
    </message>
    <message>
        <location filename="../../desktop/providers/gemini/stream.py" line="75"/>
        <source>an image was flagged by Gemini&apos;s safety filters</source>
        <translation>一张图片被 Gemini 的安全过滤器拦截</translation>
    </message>
    <message>
        <location filename="../../desktop/providers/gemini/stream.py" line="76"/>
        <source>an image may contain prohibited content</source>
        <translation>一张图片可能包含违禁内容</translation>
    </message>
    <message>
        <location filename="../../desktop/providers/gemini/stream.py" line="77"/>
        <source>Gemini wrote a tool call it could not format</source>
        <translation>Gemini 生成的工具调用格式有误</translation>
    </message>
    <message>
        <location filename="../../desktop/providers/gemini/stream.py" line="78"/>
        <source>Gemini called a tool although none was offered</source>
        <translation>Gemini 在未提供工具的情况下调用了工具</translation>
    </message>
    <message>
        <location filename="../../desktop/providers/gemini/stream.py" line="79"/>
        <source>Gemini made too many tool calls in a row</source>
        <translation>Gemini 连续调用工具的次数过多</translation>
    </message>
    <message>
        <location filename="../../desktop/providers/gemini/stream.py" line="85"/>
        <source>it contains terms on a blocklist</source>
        <translation>它包含屏蔽列表中的词语</translation>
    </message>
    <message>
        <location filename="../../desktop/providers/gemini/stream.py" line="87"/>
        <source>an image in it was flagged by Gemini&apos;s safety filters</source>
        <translation>其中一张图片被 Gemini 的安全过滤器拦截</translation>
    </message>
    <message>
        <location filename="../../desktop/providers/gemini/stream.py" line="126"/>
        <source>The server&apos;s answer was not in the expected format</source>
        <translation>服务器的响应格式不符合预期</translation>
    </message>
    <message>
        <location filename="../../desktop/providers/wire_common.py" line="92"/>
        <source>The server sent a malformed stream chunk (not JSON): {preview}</source>
        <translation>服务器发送了格式错误的流数据块（不是 JSON）：{preview}</translation>
    </message>
    <message>
        <location filename="../../desktop/providers/wire_common.py" line="98"/>
        <source>The server sent a malformed stream chunk (not an object)</source>
        <translation>服务器发送了格式错误的流数据块（不是对象）</translation>
    </message>
    <message>
        <location filename="../../desktop/providers/gemini/stream.py" line="147"/>
        <source>it conflicts with Gemini&apos;s content policy</source>
        <translation>它违反了 Gemini 的内容政策</translation>
    </message>
    <message>
        <location filename="../../desktop/providers/gemini/stream.py" line="150"/>
        <source>Gemini refused the prompt because {reason} ({code})</source>
        <translation>Gemini 拒绝了该提示词，因为{reason}（{code}）</translation>
    </message>
    <message>
        <location filename="../../desktop/providers/gemini/stream.py" line="217"/>
        <source>Gemini stopped the answer because {reason} ({code}): {detail}</source>
        <translation>Gemini 中止了回答，因为{reason}（{code}）：{detail}</translation>
    </message>
    <message>
        <location filename="../../desktop/providers/gemini/stream.py" line="221"/>
        <source>Gemini stopped the answer because {reason} ({code})</source>
        <translation>Gemini 中止了回答，因为{reason}（{code}）</translation>
    </message>
    <message>
        <location filename="../../desktop/providers/http_client.py" line="33"/>
        <source>{path} does not exist</source>
        <translation>{path} 不存在</translation>
    </message>
    <message>
        <location filename="../../desktop/providers/http_client.py" line="38"/>
        <source>{path} is not a readable PEM certificate file ({error})</source>
        <translation>{path} 不是可读取的 PEM 证书文件（{error}）</translation>
    </message>
    <message>
        <location filename="../../desktop/providers/http_errors.py" line="21"/>
        <source>The connection closed before the answer was complete</source>
        <translation>回答尚未完成，连接就已关闭</translation>
    </message>
    <message>
        <location filename="../../desktop/providers/http_errors.py" line="40"/>
        <source>The server rejected the request</source>
        <translation>服务器拒绝了请求</translation>
    </message>
    <message>
        <location filename="../../desktop/providers/http_errors.py" line="42"/>
        <source>The account has run out of credit</source>
        <translation>账户余额已用完</translation>
    </message>
    <message>
        <location filename="../../desktop/providers/http_errors.py" line="45"/>
        <source>The server timed out waiting for the request</source>
        <translation>服务器等待请求超时</translation>
    </message>
    <message>
        <location filename="../../desktop/providers/http_errors.py" line="47"/>
        <source>The server could not process the request</source>
        <translation>服务器无法处理该请求</translation>
    </message>
    <message>
        <location filename="../../desktop/providers/http_errors.py" line="157"/>
        <source>The account has run out of quota or credit; check the plan and billing with the provider</source>
        <translation>账户的配额或余额已用完；请向服务商确认套餐和账单</translation>
    </message>
    <message>
        <location filename="../../desktop/providers/http_errors.py" line="160"/>
        <source>The conversation is too long for this model&apos;s context window; start a new chat or use a model with a larger context</source>
        <translation>对话过长，超出了此模型的上下文窗口；请新建对话，或换用上下文更长的模型</translation>
    </message>
    <message>
        <location filename="../../desktop/providers/http_errors.py" line="164"/>
        <source>The server does not know this model; check its name, or fetch the model list in Settings</source>
        <translation>服务器无法识别此模型；请检查模型名称，或在设置中获取模型列表</translation>
    </message>
    <message>
        <location filename="../../desktop/providers/http_errors.py" line="225"/>
        <source>The request failed</source>
        <translation>请求失败</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/web/transfer.py" line="61"/>
        <location filename="../../desktop/providers/http_errors.py" line="245"/>
        <source>(invalid URL)</source>
        <translation>（无效的 URL）</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/web/transfer.py" line="84"/>
        <source>{name} ({host}) did not answer within {seconds:g} s.</source>
        <translation>{name}（{host}）未在 {seconds:g} 秒内响应。</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/web/transfer.py" line="86"/>
        <source>{host} did not answer within {seconds:g} s.</source>
        <translation>{host} 未在 {seconds:g} 秒内响应。</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/web/transfer.py" line="88"/>
        <source>Could not reach {name} ({host}): {reason}.</source>
        <translation>无法连接到 {name}（{host}）：{reason}。</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/web/transfer.py" line="90"/>
        <source>Could not reach {host}: {reason}.</source>
        <translation>无法连接到 {host}：{reason}。</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/web/transfer.py" line="186"/>
        <source>{name} ({host}) cannot be asked: {reason}.</source>
        <translation>无法向 {name}（{host}）发送请求：{reason}。</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/web/transfer.py" line="192"/>
        <source>{name} ({host}) sent more than {mib} MiB: that is not a search answer.</source>
        <translation>{name}（{host}）返回的数据超过 {mib} MiB，不是有效的搜索结果。</translation>
    </message>
    <message>
        <location filename="../../desktop/providers/ndjson.py" line="26"/>
        <source>The server sent a stream line longer than 16 MiB</source>
        <translation>服务器发送的流数据行超过了 16 MiB</translation>
    </message>
    <message>
        <location filename="../../desktop/providers/ollama/adapter.py" line="46"/>
        <source>check the base URL (Ollama&apos;s is usually http://127.0.0.1:11434)</source>
        <translation>请检查 API 地址（Ollama 的地址通常是 http://127.0.0.1:11434）</translation>
    </message>
    <message>
        <location filename="../../desktop/providers/ollama/stream.py" line="77"/>
        <source>The server sent a malformed stream line (not JSON): {preview}</source>
        <translation>服务器发送了格式错误的流数据行（不是 JSON）：{preview}</translation>
    </message>
    <message>
        <location filename="../../desktop/providers/ollama/stream.py" line="82"/>
        <source>The server sent a malformed stream line (not an object)</source>
        <translation>服务器发送了格式错误的流数据行（不是对象）</translation>
    </message>
    <message>
        <location filename="../../desktop/providers/ollama/stream.py" line="90"/>
        <source>Ollama reported an error mid-answer: {reason}</source>
        <translation>Ollama 在回答过程中报告了错误：{reason}</translation>
    </message>
    <message>
        <location filename="../../desktop/providers/ollama/stream.py" line="92"/>
        <source>Ollama reported an error: {reason}</source>
        <translation>Ollama 报告了错误：{reason}</translation>
    </message>
    <message>
        <location filename="../../desktop/providers/openai_chat/adapter.py" line="38"/>
        <source>check the base URL (it usually ends in /v1)</source>
        <translation>请检查 API 地址（通常以 /v1 结尾）</translation>
    </message>
    <message>
        <location filename="../../desktop/providers/openai_responses/adapter.py" line="33"/>
        <source>check the base URL (for OpenAI it is https://api.openai.com/v1)</source>
        <translation>请检查 API 地址（OpenAI 的地址是 https://api.openai.com/v1）</translation>
    </message>
    <message>
        <location filename="../../desktop/providers/openai_responses/stream.py" line="45"/>
        <source>it reached the output token limit (max_output_tokens)</source>
        <translation>已达到输出 Token 上限（max_output_tokens）</translation>
    </message>
    <message>
        <location filename="../../desktop/providers/openai_responses/stream.py" line="46"/>
        <source>the content filter stopped it</source>
        <translation>被内容过滤器拦截</translation>
    </message>
    <message>
        <location filename="../../desktop/providers/openai_responses/stream.py" line="76"/>
        <source>the server stopped it ({reason})</source>
        <translation>被服务器中止（{reason}）</translation>
    </message>
    <message>
        <location filename="../../desktop/providers/openai_responses/stream.py" line="76"/>
        <location filename="../../desktop/providers/openai_responses/stream.py" line="242"/>
        <location filename="../../desktop/providers/openai_responses/stream.py" line="278"/>
        <source>no reason given</source>
        <translation>未说明原因</translation>
    </message>
    <message>
        <location filename="../../desktop/providers/openai_responses/stream.py" line="77"/>
        <source>The answer was cut short: {reason}</source>
        <translation>回答被截断：{reason}</translation>
    </message>
    <message>
        <location filename="../../desktop/providers/openai_responses/stream.py" line="242"/>
        <location filename="../../desktop/providers/openai_responses/stream.py" line="278"/>
        <source>The model failed to answer</source>
        <translation>模型未能生成回答</translation>
    </message>
    <message>
        <location filename="../../desktop/providers/openai_chat/stream.py" line="188"/>
        <source>The server&apos;s answer contained no choices</source>
        <translation>服务器的响应中没有 choices</translation>
    </message>
    <message>
        <location filename="../../desktop/providers/registry.py" line="56"/>
        <source>{provider}: unsupported provider kind &apos;{kind}&apos;</source>
        <translation>{provider}：不支持的服务商类型 &apos;{kind}&apos;</translation>
    </message>
    <message>
        <location filename="../../desktop/providers/retry.py" line="64"/>
        <source>Rate limited</source>
        <translation>请求频率受限</translation>
    </message>
    <message>
        <location filename="../../desktop/providers/retry.py" line="68"/>
        <source>The server reported a conflict</source>
        <translation>服务器报告了冲突</translation>
    </message>
    <message>
        <location filename="../../desktop/providers/retry.py" line="70"/>
        <source>The server had an error</source>
        <translation>服务器出错</translation>
    </message>
    <message>
        <location filename="../../desktop/providers/retry.py" line="71"/>
        <source>Could not reach the server</source>
        <translation>无法连接到服务器</translation>
    </message>
    <message>
        <location filename="../../desktop/providers/transport.py" line="48"/>
        <source>(a slow server can be given longer: Stall timeout in Settings → Providers)</source>
        <translation>（服务器较慢时，可在“设置 → 模型服务商”中调大“无响应超时”）</translation>
    </message>
    <message>
        <location filename="../../desktop/providers/transport.py" line="134"/>
        <source>Could not connect to {server}: no answer within {seconds} s</source>
        <translation>无法连接到 {server}：{seconds} 秒内没有响应</translation>
    </message>
    <message>
        <location filename="../../desktop/providers/transport.py" line="141"/>
        <source>Could not connect to {server}: {reason}</source>
        <translation>无法连接到 {server}：{reason}</translation>
    </message>
    <message>
        <location filename="../../desktop/providers/transport.py" line="148"/>
        <source>{server} accepted the request but sent nothing for {seconds} s {hint}</source>
        <translation>{server} 已接受请求，但 {seconds} 秒内没有发送任何内容{hint}</translation>
    </message>
    <message>
        <location filename="../../desktop/providers/transport.py" line="155"/>
        <source>Not a usable server address: {server} ({reason})</source>
        <translation>不是可用的服务器地址：{server}（{reason}）</translation>
    </message>
    <message>
        <location filename="../../desktop/providers/transport.py" line="161"/>
        <source>The request to {server} failed: {reason}</source>
        <translation>发往 {server} 的请求失败：{reason}</translation>
    </message>
    <message>
        <location filename="../../desktop/providers/transport.py" line="190"/>
        <source>{server} answered with a web page, not an API answer; {hint}</source>
        <translation>{server} 返回的是网页，而不是 API 响应；{hint}</translation>
    </message>
    <message>
        <location filename="../../desktop/providers/transport.py" line="225"/>
        <source>The server&apos;s answer was not valid JSON: {preview}</source>
        <translation>服务器的响应不是有效的 JSON：{preview}</translation>
    </message>
    <message>
        <location filename="../../desktop/providers/transport.py" line="235"/>
        <source>The server sent nothing for {seconds} s {hint}</source>
        <translation>服务器 {seconds} 秒内没有发送任何内容{hint}</translation>
    </message>
    <message>
        <location filename="../../desktop/render/blocks.py" line="51"/>
        <source>Copy</source>
        <translation>复制</translation>
    </message>
    <message>
        <location filename="../../desktop/storage/attachments.py" line="175"/>
        <source>this is not a regular file</source>
        <translation>这不是普通文件</translation>
    </message>
    <message>
        <location filename="../../desktop/storage/attachments.py" line="360"/>
        <source>its saved text is damaged</source>
        <translation>已保存的文本已损坏</translation>
    </message>
    <message>
        <location filename="../../desktop/storage/attachments.py" line="441"/>
        <source>Could not clean up unused attachments ({detail})</source>
        <translation>无法清理未使用的附件（{detail}）</translation>
    </message>
    <message>
        <location filename="../../desktop/storage/attachments.py" line="528"/>
        <source>could not be recorded in the database ({detail})</source>
        <translation>无法记录到数据库中（{detail}）</translation>
    </message>
    <message>
        <location filename="../../desktop/storage/attachments.py" line="534"/>
        <source>there is not enough free disk space to keep a copy of it</source>
        <translation>磁盘空间不足，无法保存它的副本</translation>
    </message>
    <message>
        <location filename="../../desktop/storage/attachments.py" line="536"/>
        <source>Parley is not allowed to write to its attachment folder {root}</source>
        <translation>Parley 没有写入附件文件夹 {root} 的权限</translation>
    </message>
    <message>
        <location filename="../../desktop/storage/attachments.py" line="540"/>
        <source>the attachment folder {root} is on a read-only disk</source>
        <translation>附件文件夹 {root} 位于只读磁盘上</translation>
    </message>
    <message>
        <location filename="../../desktop/storage/attachments.py" line="541"/>
        <source>could not be copied into the attachment folder ({reason})</source>
        <translation>无法复制到附件文件夹（{reason}）</translation>
    </message>
    <message>
        <location filename="../../desktop/storage/attachments.py" line="743"/>
        <source>the file could not be found (it may have been moved or deleted)</source>
        <translation>找不到文件（可能已被移动或删除）</translation>
    </message>
    <message>
        <location filename="../../desktop/storage/attachments.py" line="745"/>
        <source>Parley is not allowed to read this file</source>
        <translation>Parley 没有读取此文件的权限</translation>
    </message>
    <message>
        <location filename="../../desktop/storage/attachments.py" line="747"/>
        <source>this is a folder, not a file</source>
        <translation>这是文件夹，不是文件</translation>
    </message>
    <message>
        <location filename="../../desktop/storage/attachments.py" line="748"/>
        <source>the file could not be read ({reason})</source>
        <translation>无法读取文件（{reason}）</translation>
    </message>
    <message>
        <location filename="../../desktop/storage/attachments.py" line="753"/>
        <source>Parley&apos;s stored copy of this file is missing</source>
        <translation>Parley 保存的此文件副本已丢失</translation>
    </message>
    <message>
        <location filename="../../desktop/storage/attachments.py" line="754"/>
        <source>Parley&apos;s stored copy of this file could not be read ({reason})</source>
        <translation>无法读取 Parley 保存的此文件副本（{reason}）</translation>
    </message>
    <message>
        <location filename="../../desktop/storage/database.py" line="55"/>
        <source>Parley could not open its database</source>
        <translation>Parley 无法打开数据库</translation>
    </message>
    <message>
        <location filename="../../desktop/storage/database.py" line="57"/>
        <source>Free some space there and start Parley again; your chats were left unchanged.</source>
        <translation>请在该磁盘上释放一些空间后重新启动 Parley；你的对话未受影响。</translation>
    </message>
    <message>
        <location filename="../../desktop/storage/database.py" line="62"/>
        <source>Could not open the database {path}: {reason}</source>
        <translation>无法打开数据库 {path}：{reason}</translation>
    </message>
    <message>
        <location filename="../../desktop/storage/database.py" line="108"/>
        <source>Parley could not save to its database</source>
        <translation>Parley 无法保存到数据库</translation>
    </message>
    <message>
        <location filename="../../desktop/storage/database.py" line="109"/>
        <source>Parley could not read its database</source>
        <translation>Parley 无法读取数据库</translation>
    </message>
    <message>
        <location filename="../../desktop/storage/database.py" line="112"/>
        <source>Could not write the database {name}: {reason}</source>
        <translation>无法写入数据库 {name}：{reason}</translation>
    </message>
    <message>
        <location filename="../../desktop/storage/database.py" line="113"/>
        <source>Could not read the database {name}: {reason}</source>
        <translation>无法读取数据库 {name}：{reason}</translation>
    </message>
    <message>
        <location filename="../../desktop/storage/database.py" line="131"/>
        <source>Free some space there and try again.</source>
        <translation>请在该磁盘上释放一些空间后重试。</translation>
    </message>
    <message>
        <location filename="../../desktop/storage/disk_space.py" line="90"/>
        <source>{what}: the disk holding {folder} is full ({free} free). {then}</source>
        <translation>{what}：{folder} 所在的磁盘已满（剩余 {free}）。{then}</translation>
    </message>
    <message>
        <location filename="../../desktop/storage/disk_space.py" line="94"/>
        <source>{what}: the disk holding {folder} is full. {then}</source>
        <translation>{what}：{folder} 所在的磁盘已满。{then}</translation>
    </message>
    <message>
        <location filename="../../desktop/storage/errors.py" line="43"/>
        <source>The conversation {conversation_id} no longer exists.</source>
        <translation>对话 {conversation_id} 已不存在。</translation>
    </message>
    <message>
        <location filename="../../desktop/storage/errors.py" line="55"/>
        <source>The message {message_id} no longer exists.</source>
        <translation>消息 {message_id} 已不存在。</translation>
    </message>
    <message>
        <location filename="../../desktop/storage/mapping.py" line="281"/>
        <source>This part ({kind}) was made by a newer version of Parley and cannot be shown.</source>
        <translation>此部分（{kind}）由更新版本的 Parley 创建，无法显示。</translation>
    </message>
    <message>
        <location filename="../../desktop/storage/mapping.py" line="284"/>
        <source>This part was made by a newer version of Parley and cannot be shown.</source>
        <translation>此部分由更新版本的 Parley 创建，无法显示。</translation>
    </message>
    <message>
        <location filename="../../desktop/storage/mapping.py" line="352"/>
        <source>The content of this message could not be read.</source>
        <translation>无法读取此消息的内容。</translation>
    </message>
    <message>
        <location filename="../../desktop/storage/secrets.py" line="44"/>
        <source>No system keyring was found (install and unlock a Secret Service such as GNOME Keyring or KeePassXC). API keys cannot be saved; providers without a key still work.</source>
        <translation>未找到系统密钥环（请安装并解锁 Secret Service，例如 GNOME Keyring 或 KeePassXC）。无法保存 API 密钥；不需要密钥的服务商仍可使用。</translation>
    </message>
    <message>
        <location filename="../../desktop/storage/secrets.py" line="116"/>
        <source>The keyring you chose ({keyring}) asks for its password on a terminal, and Parley was not started from one (or runs in its background), so API keys cannot be saved. Start Parley from a terminal, in its foreground, or choose a Secret Service such as GNOME Keyring or KeePassXC (see the README, API keys); providers without a key still work.</source>
        <translation>你选择的密钥环（{keyring}）需要在终端中输入密码，而 Parley 不是从终端启动的（或在后台运行），因此无法保存 API 密钥。请在终端前台启动 Parley，或选择 Secret Service，例如 GNOME Keyring 或 KeePassXC（见 README 的“API keys”一节）；不需要密钥的服务商仍可使用。</translation>
    </message>
    <message>
        <location filename="../../desktop/storage/secrets.py" line="126"/>
        <source>Only an insecure keyring ({keyring}) was found, so API keys are not saved. Install and unlock a system keyring such as GNOME Keyring, KWallet or KeePassXC; providers without a key still work.</source>
        <translation>只找到了不安全的密钥环（{keyring}），因此不会保存 API 密钥。请安装并解锁系统密钥环，例如 GNOME Keyring、KWallet 或 KeePassXC；不需要密钥的服务商仍可使用。</translation>
    </message>
    <message>
        <location filename="../../desktop/storage/secrets.py" line="133"/>
        <source>The system keyring could not be reached ({reason}). API keys cannot be saved; providers without a key still work.</source>
        <translation>无法访问系统密钥环（{reason}）。无法保存 API 密钥；不需要密钥的服务商仍可使用。</translation>
    </message>
    <message>
        <location filename="../../desktop/storage/secrets.py" line="157"/>
        <source>API keys are stored by {keyring} in {path}, not encrypted: anyone who can read your files can read them. A Secret Service such as GNOME Keyring or KeePassXC keeps them safer.</source>
        <translation>API 密钥由 {keyring} 未加密地保存在 {path} 中：任何能读取你文件的人都能读取它们。使用 GNOME Keyring 或 KeePassXC 等 Secret Service 更安全。</translation>
    </message>
    <message>
        <location filename="../../desktop/storage/secrets.py" line="163"/>
        <source>API keys are stored by {keyring}, not encrypted: anyone who can read your files can read them. A Secret Service such as GNOME Keyring or KeePassXC keeps them safer.</source>
        <translation>API 密钥由 {keyring} 未加密保存：任何能读取你文件的人都能读取它们。使用 GNOME Keyring 或 KeePassXC 等 Secret Service 更安全。</translation>
    </message>
    <message>
        <location filename="../../desktop/storage/secrets.py" line="169"/>
        <source>API keys are stored by {keyring} in {path}, the keyring you chose instead of the system&apos;s.</source>
        <translation>API 密钥由 {keyring} 保存在 {path} 中，这是你选择用来代替系统密钥环的密钥环。</translation>
    </message>
    <message>
        <location filename="../../desktop/storage/secrets.py" line="174"/>
        <source>API keys are stored by {keyring}, the keyring you chose instead of the system&apos;s.</source>
        <translation>API 密钥由 {keyring} 保存，这是你选择用来代替系统密钥环的密钥环。</translation>
    </message>
    <message>
        <location filename="../../desktop/storage/secrets.py" line="200"/>
        <source>an API key must not be empty</source>
        <translation>API 密钥不能为空</translation>
    </message>
    <message>
        <location filename="../../desktop/storage/secrets.py" line="212"/>
        <source>The system keyring refused to save the API key for {provider} ({kind}).</source>
        <translation>系统密钥环拒绝保存 {provider} 的 API 密钥（{kind}）。</translation>
    </message>
    <message>
        <location filename="../../desktop/storage/secrets.py" line="229"/>
        <source>The system keyring could not delete the API key for {provider} ({kind}).</source>
        <translation>系统密钥环无法删除 {provider} 的 API 密钥（{kind}）。</translation>
    </message>
    <message>
        <location filename="../../desktop/storage/settings_file.py" line="45"/>
        <source>{name} could not be read ({reason})</source>
        <translation>无法读取 {name}（{reason}）</translation>
    </message>
    <message>
        <location filename="../../desktop/storage/settings_file.py" line="54"/>
        <source>byte {offset}</source>
        <translation>第 {offset} 字节</translation>
    </message>
    <message>
        <location filename="../../desktop/storage/settings_file.py" line="54"/>
        <source>the file is not valid UTF-8 text</source>
        <translation>文件不是有效的 UTF-8 文本</translation>
    </message>
    <message>
        <location filename="../../desktop/storage/settings_file.py" line="58"/>
        <source>line {line}, column {column}</source>
        <translation>第 {line} 行，第 {column} 列</translation>
    </message>
    <message>
        <location filename="../../desktop/storage/transfer.py" line="93"/>
        <source>The message {message} does not belong to the conversation {id} being imported; nothing was imported.</source>
        <translation>消息 {message} 不属于正在导入的对话 {id}；未导入任何内容。</translation>
    </message>
    <message>
        <location filename="../../desktop/storage/transfer.py" line="99"/>
        <source>The same message id appears twice; nothing was imported.</source>
        <translation>同一个消息 ID 出现了两次；未导入任何内容。</translation>
    </message>
    <message>
        <location filename="../../desktop/storage/transfer.py" line="103"/>
        <source>The messages of {id} do not form a tree; nothing was imported.</source>
        <translation>{id} 的消息无法构成树结构；未导入任何内容。</translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/storage/transfer.py" line="113"/>
        <source>%n message(s) being imported, e.g. {example}, already belong to another conversation. Nothing was imported, so neither conversation is changed.</source>
        <translation>
            <numerusform>正在导入的 %n 条消息（例如 {example}）已属于另一个对话。未导入任何内容，两个对话均未改动。</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../desktop/storage/transfer.py" line="145"/>
        <source>The message {id} replies to {parent}, which is neither being imported nor stored; nothing was imported.</source>
        <translation>消息 {id} 回复的是 {parent}，但后者既不在本次导入中，也未保存在本地；未导入任何内容。</translation>
    </message>
    <message>
        <location filename="../../desktop/storage/transfer.py" line="152"/>
        <source>The message {id} replies to {parent}, which belongs to another conversation; nothing was imported.</source>
        <translation>消息 {id} 回复的是 {parent}，但后者属于另一个对话；未导入任何内容。</translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/ui/viewmodels/long_text.py" line="39"/>
        <source>… and %Ln more character(s), not shown.</source>
        <translation>
            <numerusform>… 还有 %Ln 个字符未显示。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/ui/viewmodels/long_text.py" line="44"/>
        <source>… %Ln character(s) not shown …</source>
        <translation>
            <numerusform>… 省略了 %Ln 个字符 …</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/ui/viewmodels/message_item.py" line="176"/>
        <source>%Ln token(s)</source>
        <translation>
            <numerusform>%Ln Token</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/ui/viewmodels/usage.py" line="72"/>
        <source>%Ln of the models used have no price (Settings → Usage &amp; models)</source>
        <translation>
            <numerusform>有 %Ln 个使用过的模型未设置价格（设置 → 用量与模型）</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../desktop/render/maths.py" line="88"/>
        <source>longer than %1 characters</source>
        <translation>超过 %1 个字符</translation>
    </message>
    <message>
        <location filename="../../desktop/render/maths.py" line="97"/>
        <source>nested more than %1 levels deep</source>
        <translation>嵌套超过 %1 层</translation>
    </message>
    <message>
        <location filename="../../desktop/render/maths.py" line="171"/>
        <source>Math — not typeset</source>
        <translation>公式（未排版）</translation>
    </message>
    <message>
        <location filename="../../desktop/render/maths.py" line="175"/>
        <source>Formula not typeset: %1</source>
        <translation>公式未排版：%1</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/math_images.py" line="219"/>
        <source>too many formulas to show at once</source>
        <translation>一次要显示的公式太多</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/math_images.py" line="331"/>
        <source>unknown command %1</source>
        <translation>未知命令 %1</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/math_images.py" line="333"/>
        <source>nested too deeply</source>
        <translation>嵌套过深</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/math_images.py" line="335"/>
        <source>took too long to typeset</source>
        <translation>排版超时</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/math_images.py" line="337"/>
        <source>the typesetter stopped</source>
        <translation>排版程序意外停止</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/math_images.py" line="339"/>
        <source>the typesetter could not be started</source>
        <translation>无法启动排版程序</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/math_images.py" line="343"/>
        <location filename="../../desktop/ui/math_images.py" line="351"/>
        <source>the typesetter&apos;s output was not understood</source>
        <translation>无法识别排版程序的输出</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/math_images.py" line="342"/>
        <source>not valid TeX (%1)</source>
        <translation>不是有效的 TeX（%1）</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/math_images.py" line="342"/>
        <source>not valid TeX</source>
        <translation>不是有效的 TeX</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/math_images.py" line="368"/>
        <source>too large to show</source>
        <translation>太大，无法显示</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/knowledge/documents.py" line="41"/>
        <source>is not a document Parley can read</source>
        <translation>不是 Parley 可读取的文档</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/knowledge/embedding.py" line="43"/>
        <source>the embedding model returned {got} vectors for {sent} passages</source>
        <translation>嵌入模型为 {sent} 个段落返回了 {got} 个向量</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/knowledge/embedding.py" line="52"/>
        <source>the embedding model returned vectors of different sizes</source>
        <translation>嵌入模型返回的向量维度不一致</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/knowledge/embedding.py" line="54"/>
        <source>the embedding model returned vectors Parley cannot use</source>
        <translation>嵌入模型返回了 Parley 无法使用的向量</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/knowledge/indexer.py" line="84"/>
        <source>only its first {count} characters are indexed: the rest is past the limit</source>
        <translation>只索引了前 {count} 个字符：其余部分超出了上限</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/knowledge/embed_batches.py" line="56"/>
        <source>unexpected error ({kind})</source>
        <translation>意外错误（{kind}）</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/knowledge/indexer.py" line="92"/>
        <source>Not available now: {paths}. Their files are kept until they are back.</source>
        <translation>暂时无法访问：{paths}。其中的文件会保留，直到它们恢复可用。</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/knowledge/indexer.py" line="99"/>
        <source>Searched by words only for now: vectors could not be computed ({reason}).</source>
        <translation>暂时仅按关键词搜索：无法计算向量（{reason}）。</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/knowledge/indexer.py" line="321"/>
        <source>could not be read</source>
        <translation>无法读取</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/knowledge/scanner.py" line="140"/>
        <source>not a kind of file Parley reads</source>
        <translation>不是 Parley 可读取的文件类型</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/knowledge/search.py" line="73"/>
        <source>the embedding model&apos;s provider is not available</source>
        <translation>嵌入模型的服务商不可用</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/knowledge/search.py" line="77"/>
        <location filename="../../desktop/engine/memory/embedding.py" line="82"/>
        <source>the embedding server did not answer</source>
        <translation>嵌入服务器没有响应</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/knowledge/search.py" line="81"/>
        <location filename="../../desktop/engine/memory/embedding.py" line="84"/>
        <source>the embedding server reported an error: {error}</source>
        <translation>嵌入服务器报告了错误：{error}</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/knowledge/search.py" line="85"/>
        <source>the question could not be embedded</source>
        <translation>无法为问题生成嵌入向量</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/knowledge/search.py" line="89"/>
        <location filename="../../desktop/engine/memory/embedding.py" line="91"/>
        <source>the embedding model returned an empty vector</source>
        <translation>嵌入模型返回了空向量</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/knowledge/search.py" line="93"/>
        <source>the library has no vectors for this embedding model yet</source>
        <translation>知识库中还没有此嵌入模型的向量</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/knowledge/search.py" line="97"/>
        <source>the embedding model returns vectors of another size than the library&apos;s index</source>
        <translation>嵌入模型返回的向量维度与知识库索引的不一致</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/knowledge/search.py" line="361"/>
        <source>{library}: {reason}</source>
        <translation>{library}：{reason}</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/knowledge/service.py" line="166"/>
        <source>the index of your documents could not be read</source>
        <translation>无法读取你的文档索引</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/knowledge/service.py" line="236"/>
        <source>Indexing stopped: {reason}</source>
        <translation>索引已停止：{reason}</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/turn/retrieval.py" line="99"/>
        <source>Your documents could not be searched: {reason}</source>
        <translation>无法搜索你的文档：{reason}</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/turn/retrieval.py" line="113"/>
        <source>Your documents were searched by words only: {reason}</source>
        <translation>已仅按关键词搜索你的文档：{reason}</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/turn/retrieval.py" line="120"/>
        <source>This model cannot call tools, and this assistant searches your documents only on demand, so this answer did not use them. Choose a model with tool calling, or let the assistant give the documents up front (Settings → Assistants).</source>
        <translation>此模型不支持工具调用，而此助手仅在模型请求时才搜索你的文档，因此本次回答没有用到文档。请选择支持工具调用的模型，或在“设置 → 助手”中让助手在回答前预先提供文档。</translation>
    </message>
    <message>
        <location filename="../../desktop/providers/embeddings.py" line="36"/>
        <source>The server&apos;s answer was not embeddings: {reason}</source>
        <translation>服务器的响应不是嵌入向量：{reason}</translation>
    </message>
    <message>
        <location filename="../../desktop/providers/embeddings.py" line="84"/>
        <source>the vectors have different lengths</source>
        <translation>向量长度不一致</translation>
    </message>
    <message>
        <location filename="../../desktop/providers/embeddings.py" line="92"/>
        <source>no list of vectors</source>
        <translation>没有向量列表</translation>
    </message>
    <message>
        <location filename="../../desktop/providers/embeddings.py" line="95"/>
        <source>{count} vectors for {expected} texts</source>
        <translation>{expected} 段文本返回了 {count} 个向量</translation>
    </message>
    <message>
        <location filename="../../desktop/providers/embeddings.py" line="103"/>
        <location filename="../../desktop/providers/embeddings.py" line="106"/>
        <source>a vector is not a list of numbers</source>
        <translation>有向量不是数字列表</translation>
    </message>
    <message>
        <location filename="../../desktop/providers/embeddings.py" line="112"/>
        <source>a vector holds a value that is not a finite number</source>
        <translation>有向量包含非有限数值</translation>
    </message>
    <message>
        <location filename="../../desktop/providers/gemini/embeddings.py" line="47"/>
        <location filename="../../desktop/providers/ollama/embeddings.py" line="28"/>
        <location filename="../../desktop/providers/openai_embeddings.py" line="31"/>
        <source>not a JSON object</source>
        <translation>不是 JSON 对象</translation>
    </message>
    <message>
        <location filename="../../desktop/providers/gemini/embeddings.py" line="54"/>
        <location filename="../../desktop/providers/ollama/embeddings.py" line="32"/>
        <source>no `embeddings` list</source>
        <translation>没有 `embeddings` 列表</translation>
    </message>
    <message>
        <location filename="../../desktop/providers/openai_embeddings.py" line="37"/>
        <source>no `data` list</source>
        <translation>没有 `data` 列表</translation>
    </message>
    <message>
        <location filename="../../desktop/providers/openai_embeddings.py" line="40"/>
        <source>the items&apos; `index` values do not number the texts</source>
        <translation>各项的 `index` 值与文本编号不对应</translation>
    </message>
    <message>
        <location filename="../../desktop/core/memory.py" line="66"/>
        <source>That memory no longer exists.</source>
        <translation>该记忆已不存在。</translation>
    </message>
    <message>
        <location filename="../../desktop/core/memory.py" line="74"/>
        <source>That memory was deleted; save it again to keep it.</source>
        <translation>该记忆已被删除；如需保留，请重新保存。</translation>
    </message>
    <message>
        <location filename="../../desktop/core/memory.py" line="102"/>
        <source>A memory belongs to all assistants or to one assistant.</source>
        <translation>记忆只能属于所有助手或某一个助手。</translation>
    </message>
    <message>
        <location filename="../../desktop/core/memory.py" line="110"/>
        <source>A memory needs some text.</source>
        <translation>记忆内容不能为空。</translation>
    </message>
    <message>
        <location filename="../../desktop/core/memory.py" line="113"/>
        <source>A memory can be at most {limit} characters long; this one has {length}.</source>
        <translation>记忆最多 {limit} 个字符；当前为 {length} 个字符。</translation>
    </message>
    <message>
        <location filename="../../desktop/core/web_search.py" line="75"/>
        <source>must be the instance&apos;s address, without a ?query or #fragment</source>
        <translation>必须是实例地址，不能带 ?query 或 #fragment</translation>
    </message>
    <message>
        <location filename="../../desktop/core/web_search.py" line="80"/>
        <source>must not hold a user name or password: use the fields for them</source>
        <translation>不能包含用户名或密码：请填写在对应的字段中</translation>
    </message>
    <message>
        <location filename="../../desktop/core/web_search.py" line="91"/>
        <source>must be on one line and must not contain &apos;:&apos;</source>
        <translation>必须写在一行内，且不能包含 &apos;:&apos;</translation>
    </message>
    <message>
        <location filename="../../desktop/core/web_search.py" line="103"/>
        <source>must be between 1 and {high}, not {value}</source>
        <translation>必须介于 1 到 {high} 之间，而不是 {value}</translation>
    </message>
    <message>
        <location filename="../../desktop/core/web_search.py" line="128"/>
        <source>must be null (off) or one of: {choices}</source>
        <translation>必须是 null（关闭）或以下之一：{choices}</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/memory/block.py" line="119"/>
        <source>All assistants</source>
        <translation>所有助手</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/memory/block.py" line="121"/>
        <source>Assistant: {name}</source>
        <translation>助手：{name}</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/memory/block.py" line="136"/>
        <source>Memories</source>
        <translation>记忆</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/memory/embedding.py" line="75"/>
        <source>the embedding model is not available: {error}</source>
        <translation>嵌入模型不可用：{error}</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/memory/embedding.py" line="88"/>
        <source>the text could not be embedded</source>
        <translation>无法为文本生成嵌入向量</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/memory/service.py" line="323"/>
        <source>no memory has been embedded with this model yet</source>
        <translation>还没有用此模型嵌入过的记忆</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/memory/service.py" line="326"/>
        <source>the embedding model returns vectors of another size than the memories&apos;</source>
        <translation>嵌入模型返回的向量维度与记忆的不一致</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/web/duckduckgo.py" line="30"/>
        <source>DuckDuckGo is rate-limiting scripted searches from this address. Try again later, or use a SearXNG instance (Settings → Web search), which does not.</source>
        <translation>DuckDuckGo 正在限制来自此地址的自动化搜索。请稍后重试，或在“设置 → 网络搜索”中改用没有此限制的 SearXNG 实例。</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/web/engines.py" line="90"/>
        <source>Web search is off: choose an engine in Settings → Web search.</source>
        <translation>网络搜索已关闭：请在“设置 → 网络搜索”中选择搜索引擎。</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/web/engines.py" line="93"/>
        <source>There is nothing to search for: the query is empty.</source>
        <translation>没有可搜索的内容：搜索词为空。</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/web/engines.py" line="107"/>
        <source>Add the address of your SearXNG instance in Settings → Web search.</source>
        <translation>请在“设置 → 网络搜索”中填写你的 SearXNG 实例地址。</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/web/engines.py" line="128"/>
        <source>SearXNG ({host}) refused the user name or password: check them in Settings → Web search.</source>
        <translation>SearXNG（{host}）拒绝了用户名或密码：请在“设置 → 网络搜索”中检查。</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/web/engines.py" line="137"/>
        <source>SearXNG ({host}) does not give results as JSON (HTTP {status}): enable `json` in search.formats of the SearXNG settings (settings.yml).</source>
        <translation>SearXNG（{host}）未以 JSON 格式返回结果（HTTP {status}）：请在 SearXNG 设置（settings.yml）的 search.formats 中启用 `json`。</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/web/engines.py" line="157"/>
        <source>Add your Brave Search API key in Settings → Web search.</source>
        <translation>请在“设置 → 网络搜索”中填写你的 Brave Search API 密钥。</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/web/engines.py" line="185"/>
        <source>Add your Tavily API key in Settings → Web search.</source>
        <translation>请在“设置 → 网络搜索”中填写你的 Tavily API 密钥。</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/web/engines.py" line="251"/>
        <source>{name} rejected the API key (HTTP {status}): check it in Settings → Web search.</source>
        <translation>{name} 拒绝了 API 密钥（HTTP {status}）：请在“设置 → 网络搜索”中检查。</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/web/engines.py" line="257"/>
        <source>{name} is limiting how often Parley may search (HTTP 429): try again in {seconds} s.</source>
        <translation>{name} 正在限制 Parley 的搜索频率（HTTP 429）：请在 {seconds} 秒后重试。</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/web/engines.py" line="261"/>
        <source>{name} is limiting how often Parley may search (HTTP 429): try again in a minute.</source>
        <translation>{name} 正在限制 Parley 的搜索频率（HTTP 429）：请一分钟后重试。</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/web/engines.py" line="264"/>
        <source>{name} ({host}) had a server error (HTTP {status}): try again later.</source>
        <translation>{name}（{host}）出现服务器错误（HTTP {status}）：请稍后重试。</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/web/engines.py" line="267"/>
        <source>{name} ({host}) refused the search (HTTP {status}): {detail}</source>
        <translation>{name}（{host}）拒绝了搜索请求（HTTP {status}）：{detail}</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/web/engines.py" line="279"/>
        <source>{name} ({host}) sent an answer that is not the JSON it should send.</source>
        <translation>{name}（{host}）返回的响应不是预期的 JSON。</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/web/page_text.py" line="64"/>
        <source>The page at {host} cannot be read: {reason}.</source>
        <translation>无法读取 {host} 上的网页：{reason}。</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/web/page_text.py" line="94"/>
        <source>{host} answered HTTP {status} for this page.</source>
        <translation>{host} 对此网页返回了 HTTP {status}。</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/web/page_text.py" line="105"/>
        <source>The page at {host} redirected more than {count} times.</source>
        <translation>{host} 上的网页重定向超过了 {count} 次。</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/web/page_text.py" line="120"/>
        <source>The page redirected to {address}; only http:// and https:// pages are read.</source>
        <translation>网页被重定向到{address}；只能读取 http:// 和 https:// 网页。</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/web/page_text.py" line="122"/>
        <source>Only http:// and https:// pages can be read, not {address}.</source>
        <translation>只能读取 http:// 和 https:// 网页，无法读取{address}。</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/web/page_text.py" line="124"/>
        <source>an address without a host</source>
        <translation>没有主机名的地址</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/web/page_text.py" line="126"/>
        <source>a {scheme}: address</source>
        <translation>采用 {scheme} 协议的地址</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/web/page_text.py" line="128"/>
        <source>an address without http:// or https://</source>
        <translation>不带 http:// 或 https:// 的地址</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/web/page_text.py" line="142"/>
        <source>The page is {type}, not HTML or text: only web pages and plain text are read.</source>
        <translation>该网页的类型为 {type}，不是 HTML 或文本：只能读取网页和纯文本。</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/web/page_text.py" line="155"/>
        <source>The page is binary data, not HTML or text.</source>
        <translation>该网页是二进制数据，不是 HTML 或文本。</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/assistants.py" line="38"/>
        <location filename="../../desktop/ui/viewmodels/knowledge_settings.py" line="90"/>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/assistants.py" line="39"/>
        <source>Icon</source>
        <translation>图标</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/assistants.py" line="40"/>
        <source>System prompt</source>
        <translation>系统提示词</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/assistants.py" line="41"/>
        <source>Max output tokens</source>
        <translation>最大输出 Token 数</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/assistants.py" line="42"/>
        <source>Summarise history above</source>
        <translation>历史超过此长度时摘要</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/knowledge_settings.py" line="90"/>
        <source>Folders and files</source>
        <translation>文件夹和文件</translation>
    </message>
    <message>
        <location filename="../../desktop/core/mcp_entry.py" line="72"/>
        <source>(unnamed)</source>
        <translation>（未命名）</translation>
    </message>
    <message>
        <location filename="../../desktop/core/mcp_entry.py" line="77"/>
        <source>is not a server: expected an object with a “command” or a “url”</source>
        <translation>不是服务器：应为包含“command”或“url”的对象</translation>
    </message>
    <message>
        <location filename="../../desktop/core/mcp_entry.py" line="88"/>
        <source>Its “envFile” is not read: add those variables to its environment.</source>
        <translation>不会读取其“envFile”：请将其中的变量添加到它的环境变量中。</translation>
    </message>
    <message>
        <location filename="../../desktop/core/mcp_entry.py" line="96"/>
        <source>Uses ${…} placeholders, which Parley passes on as they are: put in real values.</source>
        <translation>使用了 ${…} 占位符，Parley 会原样传递：请填入实际值。</translation>
    </message>
    <message>
        <location filename="../../desktop/core/mcp_entry.py" line="114"/>
        <source>“type” must be a string such as &quot;stdio&quot; or &quot;http&quot;</source>
        <translation>“type”必须是字符串，例如 &quot;stdio&quot; 或 &quot;http&quot;</translation>
    </message>
    <message>
        <location filename="../../desktop/core/mcp_entry.py" line="119"/>
        <source>has the type “{type}”, which Parley cannot use (it runs stdio programs and connects to HTTP or SSE URLs)</source>
        <translation>类型为“{type}”，Parley 无法使用（Parley 可运行 stdio 程序，或连接 HTTP 或 SSE URL）</translation>
    </message>
    <message>
        <location filename="../../desktop/core/mcp_entry.py" line="126"/>
        <source>has both a “command” and a “url”: add &quot;type&quot; to say which</source>
        <translation>同时包含“command”和“url”：请添加 &quot;type&quot; 指明使用哪一个</translation>
    </message>
    <message>
        <location filename="../../desktop/core/mcp_entry.py" line="131"/>
        <source>has neither a “command” to run nor a “url” to connect to</source>
        <translation>既没有可运行的“command”，也没有可连接的“url”</translation>
    </message>
    <message>
        <location filename="../../desktop/core/mcp_entry.py" line="143"/>
        <source>“{field}” must be text</source>
        <translation>“{field}”必须是文本</translation>
    </message>
    <message>
        <location filename="../../desktop/core/mcp_entry.py" line="146"/>
        <source>“{field}” is empty</source>
        <translation>“{field}”为空</translation>
    </message>
    <message>
        <location filename="../../desktop/core/mcp_entry.py" line="153"/>
        <source>“{field}” must be a list of strings</source>
        <translation>“{field}”必须是字符串列表</translation>
    </message>
    <message>
        <location filename="../../desktop/core/mcp_entry.py" line="156"/>
        <location filename="../../desktop/core/mcp_entry.py" line="170"/>
        <source>“{field}” has more than {count} items</source>
        <translation>“{field}”超过 {count} 项</translation>
    </message>
    <message>
        <location filename="../../desktop/core/mcp_entry.py" line="166"/>
        <source>“{field}” must be an object of names and text values</source>
        <translation>“{field}”必须是由名称和文本值组成的对象</translation>
    </message>
    <message>
        <location filename="../../desktop/core/mcp_entry.py" line="181"/>
        <source>“{field}” holds text longer than {count} characters</source>
        <translation>“{field}”包含超过 {count} 个字符的文本</translation>
    </message>
    <message>
        <location filename="../../desktop/core/mcp_entry.py" line="188"/>
        <source>“{field}” holds control or text-direction characters, which could hide what really runs</source>
        <translation>“{field}”包含控制字符或文字方向字符，可能会隐藏实际运行的内容</translation>
    </message>
    <message>
        <location filename="../../desktop/core/mcp_import.py" line="72"/>
        <source>is given twice in the pasted JSON: the last one is read</source>
        <translation>在粘贴的 JSON 中出现了两次：以最后一个为准</translation>
    </message>
    <message>
        <location filename="../../desktop/core/mcp_import.py" line="79"/>
        <source>Only the first {count} servers are read; paste the others separately.</source>
        <translation>只读取了前 {count} 个服务器；请单独粘贴其余的服务器。</translation>
    </message>
    <message>
        <location filename="../../desktop/core/mcp_import.py" line="97"/>
        <source>is already set up as “{name}”: left out</source>
        <translation>已配置为“{name}”：已跳过</translation>
    </message>
    <message>
        <location filename="../../desktop/core/mcp_import.py" line="104"/>
        <source>Renamed to “{new}”: a server named “{old}” is already set up.</source>
        <translation>已重命名为“{new}”：已有名为“{old}”的服务器。</translation>
    </message>
    <message>
        <location filename="../../desktop/core/mcp_import.py" line="110"/>
        <source>No MCP servers were found in this JSON.</source>
        <translation>此 JSON 中没有找到 MCP 服务器。</translation>
    </message>
    <message>
        <location filename="../../desktop/core/mcp_import.py" line="127"/>
        <source>This JSON is not an object of MCP servers. Paste the part that starts with {{ and holds “mcpServers”.</source>
        <translation>此 JSON 不是由 MCP 服务器组成的对象。请粘贴以 {{ 开头并包含“mcpServers”的部分。</translation>
    </message>
    <message>
        <location filename="../../desktop/core/mcp_import.py" line="136"/>
        <source>“{key}” must be an object of servers, each under its name.</source>
        <translation>“{key}”必须是对象，其中每个服务器以其名称为键。</translation>
    </message>
    <message>
        <location filename="../../desktop/core/mcp_json.py" line="66"/>
        <source>The pasted text is larger than 256 KiB, more than MCP server settings ever are. Copy only the part with the servers.</source>
        <translation>粘贴的文本超过 256 KiB，远大于任何 MCP 服务器设置。请只复制包含服务器的部分。</translation>
    </message>
    <message>
        <location filename="../../desktop/core/mcp_json.py" line="77"/>
        <location filename="../../desktop/core/mcp_json.py" line="83"/>
        <source>There is nothing to read: paste the servers&apos; JSON.</source>
        <translation>没有可读取的内容：请粘贴服务器的 JSON。</translation>
    </message>
    <message>
        <location filename="../../desktop/core/mcp_json.py" line="109"/>
        <source>This is not valid JSON: {reason} (line {line}, column {column}).</source>
        <translation>这不是有效的 JSON：{reason}（第 {line} 行，第 {column} 列）。</translation>
    </message>
    <message>
        <location filename="../../desktop/core/mcp_json.py" line="113"/>
        <source>This JSON is nested too deeply to be MCP server settings.</source>
        <translation>此 JSON 嵌套层级过深，不可能是 MCP 服务器设置。</translation>
    </message>
    <message>
        <location filename="../../desktop/core/mcp_json.py" line="115"/>
        <source>This is not valid JSON: {reason}.</source>
        <translation>这不是有效的 JSON：{reason}。</translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/ui/viewmodels/approval_preview.py" line="149"/>
        <source>… and %Ln more line(s)</source>
        <translation>
            <numerusform>… 还有 %Ln 行</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/ui/viewmodels/approval_preview.py" line="291"/>
        <source>… and %Ln more line(s) of the change</source>
        <translation>
            <numerusform>… 还有 %Ln 行更改</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/ui/viewmodels/find.py" line="134"/>
        <source>%Ln match(es)</source>
        <translation>
            <numerusform>%Ln 处匹配</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/ui/viewmodels/visible_text.py" line="100"/>
        <source>… %Ln line(s) not shown …</source>
        <translation>
            <numerusform>… 未显示 %Ln 行 …</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/main_menus.py" line="258"/>
        <source>Chats</source>
        <translation>对话</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/main_menus.py" line="262"/>
        <source>Open the first search result</source>
        <translation>打开第一个搜索结果</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/main_menus.py" line="263"/>
        <source>Rename the selected chat</source>
        <translation>重命名所选对话</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/main_menus.py" line="264"/>
        <source>Delete the selected chat</source>
        <translation>删除所选对话</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/main_menus.py" line="268"/>
        <source>Composer</source>
        <translation>输入框</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/main_menus.py" line="270"/>
        <source>Send the message</source>
        <translation>发送消息</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/main_menus.py" line="271"/>
        <source>New line in the message</source>
        <translation>在消息中换行</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/main_menus.py" line="272"/>
        <source>Insert a saved prompt (at the start of a line)</source>
        <translation>插入已保存的提示词（在行首）</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/main_menus.py" line="277"/>
        <source>Answer</source>
        <translation>回答</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/main_menus.py" line="279"/>
        <source>Stop the answer (keeps what arrived)</source>
        <translation>停止回答（保留已收到的内容）</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/main_menus.py" line="284"/>
        <source>Find in chat</source>
        <translation>在对话中查找</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/main_menus.py" line="286"/>
        <source>Find in this chat</source>
        <translation>在此对话中查找</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/main_menus.py" line="287"/>
        <source>Next match (in the find bar)</source>
        <translation>下一个匹配（在查找栏中）</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/main_menus.py" line="288"/>
        <source>Previous match (in the find bar)</source>
        <translation>上一个匹配（在查找栏中）</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/main_menus.py" line="290"/>
        <source>Close the find bar</source>
        <translation>关闭查找栏</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/main_menus.py" line="294"/>
        <source>Edit</source>
        <translation>编辑</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/main_menus.py" line="305"/>
        <source>View</source>
        <translation>视图</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/main_menus.py" line="307"/>
        <source>Show or hide the sidebar</source>
        <translation>显示或隐藏侧边栏</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/main_menus.py" line="308"/>
        <source>Larger text</source>
        <translation>放大文字</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/main_menus.py" line="309"/>
        <source>Smaller text</source>
        <translation>缩小文字</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/main_menus.py" line="310"/>
        <source>Text at its usual size</source>
        <translation>恢复默认文字大小</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/main_menus.py" line="315"/>
        <source>Floating chat</source>
        <translation>悬浮窗</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/main_menus.py" line="317"/>
        <source>Show or hide the floating chat</source>
        <translation>显示或隐藏悬浮窗</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/main_menus.py" line="319"/>
        <source>The same from any application (set in Settings)</source>
        <translation>在任意应用中执行同样操作（在设置中设定）</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/main_menus.py" line="322"/>
        <source>Move it</source>
        <translation>移动</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/main_menus.py" line="323"/>
        <source>Move it 50 px at a time</source>
        <translation>每次移动 50 px</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/main_menus.py" line="324"/>
        <source>Resize it</source>
        <translation>调整大小</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/main_menus.py" line="325"/>
        <source>Hide it (when no answer is running)</source>
        <translation>隐藏（没有正在生成的回答时）</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/main_menus.py" line="329"/>
        <source>Parley</source>
        <translation>Parley</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/main_menus.py" line="330"/>
        <source>This sheet</source>
        <translation>本列表</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/importers/chatbox.py" line="134"/>
        <source>This is not a Chatbox backup file.</source>
        <translation>这不是 Chatbox 备份文件。</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/importers/chatbox.py" line="149"/>
        <location filename="../../desktop/engine/importers/chatbox.py" line="303"/>
        <source>A chat</source>
        <translation>一个对话</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/importers/chatbox.py" line="150"/>
        <location filename="../../desktop/engine/importers/lobechat.py" line="167"/>
        <source>It could not be read: {error}</source>
        <translation>无法读取：{error}</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/importers/chatbox.py" line="155"/>
        <source>This Chatbox backup holds no chats. Export it again in Chatbox with “Chat History” selected.</source>
        <translation>此 Chatbox 备份中没有对话。请在 Chatbox 中重新导出，并勾选“Chat History”（聊天记录）。</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/importers/chatbox.py" line="189"/>
        <location filename="../../desktop/engine/importers/chatbox.py" line="225"/>
        <source>Chat {number} of the chat list</source>
        <translation>对话列表中的第 {number} 个对话</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/importers/chatbox.py" line="190"/>
        <source>It is not a chat entry.</source>
        <translation>不是对话条目。</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/importers/chatbox.py" line="203"/>
        <source>The backup holds no messages for it.</source>
        <translation>备份中没有它的消息。</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/importers/chatbox.py" line="205"/>
        <location filename="../../desktop/engine/importers/chatbox.py" line="220"/>
        <location filename="../../desktop/engine/importers/chatbox.py" line="226"/>
        <source>Its data is not a chat.</source>
        <translation>其数据不是对话。</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/importers/chatbox.py" line="305"/>
        <source>It has no id.</source>
        <translation>没有 ID。</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/importers/chatbox.py" line="308"/>
        <source>Its messages are not a list.</source>
        <translation>其消息不是列表。</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/importers/chatbox.py" line="312"/>
        <source>Its earlier threads could not be read.</source>
        <translation>无法读取其较早的话题。</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/importers/chatbox.py" line="318"/>
        <source>Thread {number} of “{title}”</source>
        <translation>“{title}”的第 {number} 个话题</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/importers/chatbox.py" line="319"/>
        <source>It is not a thread.</source>
        <translation>不是话题。</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/importers/chatbox.py" line="336"/>
        <source>Chatbox started a new thread here ({name}); the messages above were not part of its context.</source>
        <translation>Chatbox 在此处开始了新话题（{name}）；以上消息不在其上下文中。</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/importers/chatbox.py" line="344"/>
        <location filename="../../desktop/engine/importers/chatgpt.py" line="209"/>
        <location filename="../../desktop/engine/importers/cherry.py" line="135"/>
        <location filename="../../desktop/engine/importers/claude.py" line="133"/>
        <location filename="../../desktop/engine/importers/jan.py" line="171"/>
        <location filename="../../desktop/engine/importers/jan.py" line="210"/>
        <location filename="../../desktop/engine/importers/lobechat.py" line="265"/>
        <location filename="../../desktop/engine/importers/lobechat.py" line="337"/>
        <source>no messages</source>
        <translation>没有消息</translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/engine/importers/chatbox.py" line="386"/>
        <source>%n image(s) or file(s) were attached in Chatbox, but its backup does not hold them; a notice marks each place.</source>
        <translation>
            <numerusform>在 Chatbox 中添加的 %n 个图片或文件未包含在其备份中；每处均以提示标出。</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../desktop/engine/importers/chatbox.py" line="424"/>
        <source>Message {number} of “{title}”</source>
        <translation>“{title}”的第 {number} 条消息</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/importers/chatbox.py" line="432"/>
        <source>It is not a message.</source>
        <translation>不是消息。</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/importers/chatbox.py" line="438"/>
        <source>Its id appears twice.</source>
        <translation>其 ID 出现了两次。</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/importers/chatbox.py" line="449"/>
        <source>This chat had a system prompt in Chatbox; it was not imported as Parley&apos;s system prompt. Open this notice to read it.</source>
        <translation>此对话在 Chatbox 中设有系统提示词，但未作为 Parley 的系统提示词导入。打开此提示即可查看。</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/importers/chatbox.py" line="457"/>
        <source>Chatbox&apos;s separate tool messages are not imported.</source>
        <translation>不导入 Chatbox 中单独的工具消息。</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/importers/chatbox.py" line="460"/>
        <source>Its role ({role}) is not one Parley has.</source>
        <translation>其角色（{role}）在 Parley 中不存在。</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/importers/chatbox.py" line="501"/>
        <source>Its content is not a list.</source>
        <translation>其内容不是列表。</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/importers/chatbox.py" line="549"/>
        <source>A file ({name}) was attached here in Chatbox; it was not imported.</source>
        <translation>此处在 Chatbox 中附有一个文件（{name}），未导入。</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/importers/chatbox.py" line="561"/>
        <source>A web page was attached here in Chatbox ({url}); its text was not imported.</source>
        <translation>此处在 Chatbox 中附有一个网页（{url}），其文本未导入。</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/importers/chatbox.py" line="571"/>
        <source>An image was attached here in Chatbox; it was not imported.</source>
        <translation>此处在 Chatbox 中附有一张图片，未导入。</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/importers/chatbox.py" line="594"/>
        <source>A part of this message that Parley does not know ({kind}) was not imported.</source>
        <translation>此消息中有一部分 Parley 无法识别的内容（{kind}），未导入。</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/importers/chatgpt.py" line="67"/>
        <location filename="../../desktop/engine/importers/claude.py" line="99"/>
        <source>The export has no conversations.json.</source>
        <translation>导出文件中没有 conversations.json。</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/importers/chatgpt.py" line="83"/>
        <source>The rest of the file is not valid JSON ({error}); what came before it was read.</source>
        <translation>文件的其余部分不是有效的 JSON（{error}）；已读取此前的内容。</translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/engine/importers/chatgpt.py" line="97"/>
        <source>Only this file was chosen, not the whole export, so %n image(s) and file(s) of its chats cannot be imported. Choose the export&apos;s zip file to bring them in too.</source>
        <translation>
            <numerusform>只选择了这个文件，而不是完整的导出，因此其对话中的 %n 个图片或文件无法导入。请选择导出的 zip 文件，以便一并导入它们。</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../desktop/engine/importers/chatgpt.py" line="122"/>
        <location filename="../../desktop/engine/importers/files.py" line="133"/>
        <source>{name} is too large to read.</source>
        <translation>{name} 过大，无法读取。</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/importers/chatgpt.py" line="127"/>
        <source>{name} is not UTF-8 text: {error}</source>
        <translation>{name} 不是 UTF-8 文本：{error}</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/importers/chatgpt.py" line="137"/>
        <source>This is not a list of ChatGPT conversations.</source>
        <translation>这不是 ChatGPT 对话列表。</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/importers/chatgpt.py" line="163"/>
        <location filename="../../desktop/engine/importers/chatgpt.py" line="168"/>
        <location filename="../../desktop/engine/importers/claude.py" line="119"/>
        <source>conversation {number}</source>
        <translation>第 {number} 个对话</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/importers/chatgpt.py" line="164"/>
        <source>it is not a conversation (not a JSON object)</source>
        <translation>不是对话（不是 JSON 对象）</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/importers/chatgpt.py" line="172"/>
        <location filename="../../desktop/engine/importers/claude.py" line="109"/>
        <source>it could not be read: {error}</source>
        <translation>无法读取：{error}</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/importers/chatgpt.py" line="200"/>
        <location filename="../../desktop/engine/importers/claude.py" line="128"/>
        <source>it has no id</source>
        <translation>没有 ID</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/importers/chatgpt.py" line="203"/>
        <source>its message tree is missing or unreadable</source>
        <translation>消息树缺失或无法读取</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/importers/chatgpt.py" line="216"/>
        <source>it shares messages with another conversation of this export</source>
        <translation>与此导出中的另一个对话有相同的消息</translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/engine/importers/chatgpt.py" line="248"/>
        <source>%n image(s) or file(s) shown in ChatGPT are not in the export or cannot be shown in Parley; a note marks each place.</source>
        <translation>
            <numerusform>在 ChatGPT 中显示的 %n 个图片或文件不在导出中，或无法在 Parley 中显示；已在每处添加说明。</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../desktop/engine/importers/chatgpt.py" line="268"/>
        <location filename="../../desktop/engine/importers/chatgpt.py" line="278"/>
        <source>it is not a JSON object</source>
        <translation>不是 JSON 对象</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/importers/chatgpt.py" line="287"/>
        <location filename="../../desktop/engine/importers/claude.py" line="149"/>
        <location filename="../../desktop/engine/importers/jan.py" line="189"/>
        <source>message {number} of “{title}”</source>
        <translation>“{title}”的第 {number} 条消息</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/importers/chatgpt.py" line="337"/>
        <source>its replies go round in a loop</source>
        <translation>其回复关系构成了循环</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/importers/chatgpt_content.py" line="32"/>
        <source>An image was attached here in ChatGPT; it was not imported.</source>
        <translation>此处在 ChatGPT 中附有一张图片，未导入。</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/importers/chatgpt_content.py" line="211"/>
        <location filename="../../desktop/engine/importers/chatgpt_content.py" line="263"/>
        <source>ChatGPT showed content of the kind “{kind}” here; it was not imported.</source>
        <translation>ChatGPT 在此处显示了“{kind}”类型的内容，未导入。</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/importers/chatgpt_content.py" line="250"/>
        <source>A recording was attached here in ChatGPT; it was not imported.</source>
        <translation>此处在 ChatGPT 中附有一段录音，未导入。</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/importers/chatgpt_content.py" line="300"/>
        <source>The file “{name}” was attached here in ChatGPT; it was not imported.</source>
        <translation>此处在 ChatGPT 中附有文件“{name}”，未导入。</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/importers/chatgpt_content.py" line="322"/>
        <source>it names no author</source>
        <translation>未注明作者</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/importers/chatgpt_content.py" line="329"/>
        <source>it was written by “{role}”, which is not the person or the model</source>
        <translation>作者是“{role}”，既不是用户也不是模型</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/importers/chatgpt_content.py" line="333"/>
        <source>its content is missing or unreadable</source>
        <translation>内容缺失或无法读取</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/importers/cherry.py" line="71"/>
        <source>This is a Cherry Studio “direct” backup (version 6 or later): a copy of Cherry Studio&apos;s databases as Chromium&apos;s LevelDB files, which Parley cannot read. Parley reads Cherry Studio&apos;s earlier backups, the ones with a data.json inside.</source>
        <translation>这是 Cherry Studio 的“直接”备份（版本 6 或更高）：它以 Chromium 的 LevelDB 文件保存 Cherry Studio 数据库的副本，Parley 无法读取。Parley 可以读取 Cherry Studio 较早的备份，即其中包含 data.json 的备份。</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/importers/cherry.py" line="81"/>
        <source>{name} is not a Cherry Studio backup: it has no topics.</source>
        <translation>{name} 不是 Cherry Studio 备份：其中没有话题。</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/importers/cherry.py" line="120"/>
        <location filename="../../desktop/engine/importers/lobechat.py" line="131"/>
        <source>topic {n}</source>
        <translation>第 {n} 个话题</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/importers/cherry.py" line="120"/>
        <source>not a topic record</source>
        <translation>不是话题记录</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/importers/cherry.py" line="126"/>
        <source>its messages are not a list</source>
        <translation>其消息不是列表</translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/engine/importers/cherry.py" line="151"/>
        <source>%n image(s) or file(s) attached in Cherry Studio were not imported.</source>
        <translation>
            <numerusform>在 Cherry Studio 中添加的 %n 个图片或文件未导入。</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../desktop/engine/importers/cherry.py" line="226"/>
        <location filename="../../desktop/engine/importers/lobechat.py" line="269"/>
        <source>message {n} of “{title}”</source>
        <translation>“{title}”的第 {n} 条消息</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/importers/cherry.py" line="228"/>
        <source>not a message record</source>
        <translation>不是消息记录</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/importers/cherry.py" line="233"/>
        <source>its id appears twice in the topic</source>
        <translation>其 ID 在话题中出现了两次</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/importers/cherry.py" line="244"/>
        <source>its role “{role}” is not one Parley has</source>
        <translation>其角色“{role}”在 Parley 中不存在</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/importers/cherry.py" line="257"/>
        <source>its content is not in the backup</source>
        <translation>其内容不在备份中</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/importers/cherry_parts.py" line="121"/>
        <source>Cherry Studio showed a translation of this message.</source>
        <translation>Cherry Studio 曾显示此消息的翻译。</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/importers/cherry_parts.py" line="175"/>
        <source>The file {name} was attached here in Cherry Studio; it was not imported.</source>
        <translation>此处在 Cherry Studio 中附有文件 {name}，未导入。</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/importers/cherry_parts.py" line="178"/>
        <source>A file was attached here in Cherry Studio; it was not imported.</source>
        <translation>此处在 Cherry Studio 中附有一个文件，未导入。</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/importers/cherry_parts.py" line="180"/>
        <source>A video was shown here in Cherry Studio; it was not imported.</source>
        <translation>此处在 Cherry Studio 中显示了一段视频，未导入。</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/importers/cherry_parts.py" line="181"/>
        <source>An image was attached here in Cherry Studio; it was not imported.</source>
        <translation>此处在 Cherry Studio 中附有一张图片，未导入。</translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/engine/importers/cherry_parts.py" line="193"/>
        <source>This answer cited %n source(s) in Cherry Studio.</source>
        <translation>
            <numerusform>此回答在 Cherry Studio 中引用了 %n 个来源。</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../desktop/engine/importers/cherry_parts.py" line="229"/>
        <source>Cherry Studio showed an error here.</source>
        <translation>Cherry Studio 在此处显示了一个错误。</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/importers/cherry_parts.py" line="232"/>
        <source>Cherry Studio showed an error here: {error}</source>
        <translation>Cherry Studio 在此处显示了错误：{error}</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/importers/claude.py" line="102"/>
        <source>{name} does not hold a list of conversations.</source>
        <translation>{name} 中没有对话列表。</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/importers/claude.py" line="125"/>
        <source>it is not a conversation</source>
        <translation>不是对话</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/importers/claude.py" line="131"/>
        <source>it has no list of messages</source>
        <translation>没有消息列表</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/importers/claude.py" line="151"/>
        <source>it is not a message</source>
        <translation>不是消息</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/importers/claude.py" line="156"/>
        <source>the same message appears twice</source>
        <translation>同一条消息出现了两次</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/importers/claude.py" line="171"/>
        <source>a {sender} message is not imported</source>
        <translation>不导入发送者为 {sender} 的消息</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/importers/claude.py" line="173"/>
        <source>it says nobody sent it</source>
        <translation>未注明发送者</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/importers/claude.py" line="193"/>
        <source>none of its messages could be imported</source>
        <translation>其中的消息均无法导入</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/importers/claude.py" line="209"/>
        <source>This export keeps no branches for “{title}”; its messages follow in order.</source>
        <translation>此导出未保留“{title}”的分支；其消息按顺序排列。</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/importers/claude.py" line="333"/>
        <source>Untitled Claude chat</source>
        <translation>未命名的 Claude 对话</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/importers/claude.py" line="361"/>
        <source>A part of this message could not be read.</source>
        <translation>此消息中有一部分内容无法读取。</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/importers/claude.py" line="384"/>
        <source>A “{kind}” part of this message in Claude was not imported.</source>
        <translation>此消息在 Claude 中有一部分“{kind}”内容，未导入。</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/importers/claude.py" line="478"/>
        <source>(The result held no text.)</source>
        <translation>（结果中没有文本。）</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/importers/claude.py" line="493"/>
        <source>a file</source>
        <translation>未命名文件</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/importers/claude.py" line="498"/>
        <source>The file {name} was attached here in Claude; it was not imported.</source>
        <translation>此处在 Claude 中附有文件 {name}，未导入。</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/importers/claude.py" line="506"/>
        <source>Attached file {name}:</source>
        <translation>附件 {name}：</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/importers/claude.py" line="510"/>
        <source>The file {name} was attached here in Claude. The first {count} characters of its text are kept; the file itself was not in the export.</source>
        <translation>此处在 Claude 中附有文件 {name}。已保留其文本的前 {count} 个字符；文件本身不在导出中。</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/importers/claude.py" line="515"/>
        <source>The file {name} was attached here in Claude. Its text is kept; the file itself was not in the export.</source>
        <translation>此处在 Claude 中附有文件 {name}。已保留其文本；文件本身不在导出中。</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/importers/claude.py" line="545"/>
        <source>An image or file ({name}) was attached here in Claude; it was not imported.</source>
        <translation>此处在 Claude 中附有图片或文件（{name}），未导入。</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/importers/files.py" line="60"/>
        <source>{name} is not a readable zip file: {error}</source>
        <translation>{name} 不是可读取的 zip 文件：{error}</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/importers/files.py" line="97"/>
        <location filename="../../desktop/engine/importers/files.py" line="112"/>
        <source>The export has no file {name}.</source>
        <translation>导出中没有文件 {name}。</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/importers/files.py" line="125"/>
        <source>it could not be read from the export ({error})</source>
        <translation>无法从导出中读取（{error}）</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/importers/files.py" line="138"/>
        <source>{name} is not valid JSON: {error}</source>
        <translation>{name} 不是有效的 JSON：{error}</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/importers/files.py" line="161"/>
        <source>{name} holds more files than an export does; choose its export.</source>
        <translation>{name} 中的文件数量超出了一份导出应有的数量；请选择其中的导出。</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/importers/jan.py" line="105"/>
        <source>Its files are not shaped as Jan writes them: {error}</source>
        <translation>其文件格式与 Jan 写入的格式不符：{error}</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/importers/jan.py" line="164"/>
        <source>It has no thread.json; Jan does not show such a folder either.</source>
        <translation>没有 thread.json；Jan 也不会显示这样的文件夹。</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/importers/jan.py" line="167"/>
        <source>Its thread.json is not a Jan thread.</source>
        <translation>其 thread.json 不是 Jan 对话。</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/importers/jan.py" line="169"/>
        <source>Untitled Jan thread</source>
        <translation>未命名的 Jan 对话</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/importers/jan.py" line="191"/>
        <source>The line is not readable JSON.</source>
        <translation>此行不是可读取的 JSON。</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/importers/jan.py" line="195"/>
        <source>A message with the same id came earlier.</source>
        <translation>前面已有 ID 相同的消息。</translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/engine/importers/jan.py" line="227"/>
        <source>%n image(s) or file(s) attached in Jan are not among the thread&apos;s files; they were not imported.</source>
        <translation>
            <numerusform>在 Jan 中添加的 %n 个图片或文件不在该对话的文件中，未导入。</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../desktop/engine/importers/jan.py" line="274"/>
        <source>A tool result whose call is not in the thread.</source>
        <translation>工具结果对应的调用不在此对话中。</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/importers/jan.py" line="279"/>
        <source>A system message; Parley keeps the system prompt with the assistant.</source>
        <translation>系统消息；Parley 将系统提示词保存在助手中。</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/importers/jan.py" line="281"/>
        <source>The role {role} is not one Parley shows.</source>
        <translation>Parley 不显示角色 {role}。</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/importers/jan.py" line="348"/>
        <source>A PDF file was attached here in Jan; it was not imported.</source>
        <translation>此处在 Jan 中附有一个 PDF 文件，未导入。</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/importers/jan.py" line="350"/>
        <source>An image was attached here in Jan; it was not imported.</source>
        <translation>此处在 Jan 中附有一张图片，未导入。</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/importers/jan.py" line="364"/>
        <source>A part of type {kind} was here in Jan; it was not imported.</source>
        <translation>此处在 Jan 中有一部分 {kind} 类型的内容，未导入。</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/importers/jan.py" line="390"/>
        <source>unknown tool</source>
        <translation>未知工具</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/importers/jan.py" line="395"/>
        <source>Jan recorded no result for this call.</source>
        <translation>Jan 没有记录此调用的结果。</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/importers/jan.py" line="444"/>
        <source>attachment</source>
        <translation>附件</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/importers/jan.py" line="447"/>
        <source>The file {name} was attached here in Jan; its text is kept here.</source>
        <translation>此处在 Jan 中附有文件 {name}；其文本保留在此提示中。</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/importers/lobechat.py" line="120"/>
        <source>This is not a LobeChat export file.</source>
        <translation>这不是 LobeChat 导出文件。</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/importers/lobechat.py" line="132"/>
        <source>This topic is not in a form Parley can read.</source>
        <translation>此话题的格式 Parley 无法读取。</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/importers/lobechat.py" line="142"/>
        <source>message {n}</source>
        <translation>第 {n} 条消息</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/importers/lobechat.py" line="143"/>
        <source>This message is not in a form Parley can read.</source>
        <translation>此消息的格式 Parley 无法读取。</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/importers/lobechat.py" line="205"/>
        <source>Default</source>
        <translation>默认</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/importers/lobechat.py" line="222"/>
        <source>The agent “{name}” had a system prompt; Parley did not create an assistant for it.</source>
        <translation>助手“{name}”设有系统提示词；Parley 未为其创建助手。</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/importers/lobechat.py" line="287"/>
        <source>Its role “{role}” is not one Parley knows.</source>
        <translation>Parley 无法识别其角色“{role}”。</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/importers/lobechat.py" line="292"/>
        <source>Its content is not text.</source>
        <translation>其内容不是文本。</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/importers/lobechat.py" line="297"/>
        <source>Its id appears twice in the export.</source>
        <translation>其 ID 在导出中出现了两次。</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/importers/lobechat.py" line="329"/>
        <source>A tool result with no assistant message before it.</source>
        <translation>工具结果之前没有助手消息。</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/importers/lobechat.py" line="334"/>
        <source>A system message; Parley does not import them.</source>
        <translation>系统消息；Parley 不导入此类消息。</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/importers/lobechat.py" line="492"/>
        <source>A tool result was here in LobeChat; Parley could not tell which call it answered.</source>
        <translation>此处在 LobeChat 中有一个工具结果；Parley 无法确定它对应哪个调用。</translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/engine/importers/lobechat.py" line="556"/>
        <source>%n image(s) were attached here in LobeChat; they were not imported.</source>
        <translation>
            <numerusform>此处在 LobeChat 中附有 %n 张图片，未导入。</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../desktop/engine/importers/lobechat.py" line="567"/>
        <source>The file “{name}” was attached here in LobeChat; it was not imported.</source>
        <translation>此处在 LobeChat 中附有文件“{name}”，未导入。</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/importers/run.py" line="143"/>
        <source>Parley does not recognise {name} as an export it can read. It reads exports from {clients}.</source>
        <translation>Parley 无法将 {name} 识别为可读取的导出。Parley 可以读取 {clients} 的导出。</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/importers/run.py" line="209"/>
        <source>{name} in “{title}”</source>
        <translation>“{title}”中的 {name}</translation>
    </message>
    <message>
        <location filename="../../desktop/core/backup_settings.py" line="47"/>
        <source>must be a whole number from 1 to {most}</source>
        <translation>必须是 1 到 {most} 之间的整数</translation>
    </message>
    <message>
        <location filename="../../desktop/core/remote_target.py" line="86"/>
        <source>must not contain a user name or password (enter them in their own fields)</source>
        <translation>不能包含用户名或密码（请填写在对应的字段中）</translation>
    </message>
    <message>
        <location filename="../../desktop/core/remote_target.py" line="89"/>
        <source>must not contain a query (?…) or fragment (#…)</source>
        <translation>不能包含查询参数（?…）或片段（#…）</translation>
    </message>
    <message>
        <location filename="../../desktop/core/remote_target.py" line="99"/>
        <source>must be a bucket name of 3 to 63 lowercase letters, digits, dots and hyphens, starting and ending with a letter or digit</source>
        <translation>必须是由 3 到 63 个小写字母、数字、点和连字符组成的存储桶名称，且以字母或数字开头和结尾</translation>
    </message>
    <message>
        <location filename="../../desktop/core/remote_target.py" line="107"/>
        <source>must be a bucket name, not an IP address</source>
        <translation>必须是存储桶名称，不能是 IP 地址</translation>
    </message>
    <message>
        <location filename="../../desktop/core/remote_target.py" line="115"/>
        <source>must be folder names separated by &quot;/&quot; (no &quot;..&quot;, no &quot;\&quot;, no &quot;//&quot;)</source>
        <translation>必须是以 &quot;/&quot; 分隔的文件夹名称（不能包含 &quot;..&quot;、&quot;\&quot; 或 &quot;//&quot;）</translation>
    </message>
    <message>
        <location filename="../../desktop/core/remote_target.py" line="131"/>
        <source>must be one of: folder, webdav, s3</source>
        <translation>必须是以下之一：folder、webdav、s3</translation>
    </message>
    <message>
        <location filename="../../desktop/core/remote_target.py" line="139"/>
        <source>must be the full path of a folder (e.g. /media/disk/Parley)</source>
        <translation>必须是文件夹的完整路径（例如 /media/disk/Parley）</translation>
    </message>
    <message>
        <location filename="../../desktop/core/remote_target.py" line="150"/>
        <source>must be a region name such as &quot;us-east-1&quot; (ask your provider)</source>
        <translation>必须是区域名称，例如 &quot;us-east-1&quot;（可向服务商询问）</translation>
    </message>
    <message>
        <location filename="../../desktop/core/remote_target.py" line="193"/>
        <source>{bucket} on {endpoint}</source>
        <translation>{endpoint} 上的 {bucket}</translation>
    </message>
    <message>
        <location filename="../../desktop/core/settings_merge.py" line="140"/>
        <source>the backup&apos;s settings, byte {offset}</source>
        <translation>备份中的设置，第 {offset} 字节</translation>
    </message>
    <message>
        <location filename="../../desktop/core/settings_merge.py" line="141"/>
        <source>the file is not valid UTF-8 text, so no setting was restored</source>
        <translation>该文件不是有效的 UTF-8 文本，因此未恢复任何设置</translation>
    </message>
    <message>
        <location filename="../../desktop/core/settings_merge.py" line="145"/>
        <source>the backup&apos;s settings, line {line}, column {column}</source>
        <translation>备份中的设置，第 {line} 行第 {column} 列</translation>
    </message>
    <message>
        <location filename="../../desktop/core/settings_merge.py" line="148"/>
        <location filename="../../desktop/core/settings_merge.py" line="157"/>
        <source>{problem}, so no setting was restored</source>
        <translation>{problem}，因此未恢复任何设置</translation>
    </message>
    <message>
        <location filename="../../desktop/core/settings_merge.py" line="156"/>
        <source>the backup&apos;s settings, {field}</source>
        <translation>备份中的设置，{field}</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/backup/archive.py" line="220"/>
        <source>write the backup</source>
        <translation>写入备份</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/backup/archive.py" line="277"/>
        <source>it changed while it was being backed up</source>
        <translation>备份过程中该文件发生了变化</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/backup/unpack.py" line="168"/>
        <source>it is not a tar archive ({reason})</source>
        <translation>不是 tar 归档文件（{reason}）</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/backup/unpack.py" line="171"/>
        <location filename="../../desktop/engine/backup/unpack.py" line="288"/>
        <source>open the backup</source>
        <translation>打开备份</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/backup/unpack.py" line="199"/>
        <source>it does not start with its manifest</source>
        <translation>开头不是其清单文件</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/backup/unpack.py" line="218"/>
        <source>it holds more files than its manifest lists</source>
        <translation>包含的文件多于其清单中列出的文件</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/backup/unpack.py" line="221"/>
        <source>it holds something other than a file: {name}</source>
        <translation>包含非文件内容：{name}</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/backup/unpack.py" line="224"/>
        <source>it holds {name} twice</source>
        <translation>{name} 出现了两次</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/backup/unpack.py" line="226"/>
        <source>{name} is larger than its manifest allows</source>
        <translation>{name} 超出了清单允许的大小</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/backup/unpack.py" line="239"/>
        <source>it holds a file Parley does not write: {name}</source>
        <translation>包含 Parley 不会写入的文件：{name}</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/backup/unpack.py" line="242"/>
        <source>its database or its settings are missing</source>
        <translation>缺少数据库或设置</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/backup/crypto.py" line="71"/>
        <source>Enter a passphrase.</source>
        <translation>请输入密码。</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/backup/crypto.py" line="74"/>
        <source>A passphrase needs at least {count} characters; a few unrelated words are easy to remember and hard to guess.</source>
        <translation>密码至少需要 {count} 个字符；几个互不相关的单词组合起来既好记又难猜。</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/backup/crypto.py" line="79"/>
        <source>This passphrase repeats too few different characters to be hard to guess; try a few unrelated words.</source>
        <translation>此密码中不同的字符太少，容易被猜到；试试几个互不相关的单词。</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/backup/crypto.py" line="108"/>
        <source>it ends before its key</source>
        <translation>在密钥出现之前就已结束</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/backup/crypto.py" line="111"/>
        <source>its key has an impossible size</source>
        <translation>密钥大小异常</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/backup/crypto.py" line="114"/>
        <source>it ends inside its key</source>
        <translation>在密钥中途就已结束</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/backup/crypto.py" line="116"/>
        <source>its key is not in the age format</source>
        <translation>密钥不是 age 格式</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/backup/crypto.py" line="135"/>
        <location filename="../../desktop/engine/backup/crypto.py" line="137"/>
        <source>its key does not pass its check</source>
        <translation>密钥未通过校验</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/backup/crypto.py" line="141"/>
        <source>its key is not a key</source>
        <translation>密钥无效</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/backup/crypto.py" line="148"/>
        <source>its contents were not encrypted with its key</source>
        <translation>内容不是用其密钥加密的</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/backup/crypto.py" line="150"/>
        <source>its encryption header does not pass its check</source>
        <translation>加密头未通过校验</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/backup/crypto.py" line="152"/>
        <source>its encrypted contents do not pass their check, or end early</source>
        <translation>加密内容未通过校验，或提前结束</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/backup/errors.py" line="43"/>
        <source>The passphrase does not open this backup. Check it and try again; nothing was changed.</source>
        <translation>此密码无法打开这个备份。请检查后重试；未做任何更改。</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/backup/errors.py" line="52"/>
        <source>This backup was changed or damaged after it was made ({detail}); nothing was restored from it.</source>
        <translation>此备份在创建后被修改或已损坏（{detail}）；未从中恢复任何内容。</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/backup/errors.py" line="61"/>
        <source>{name} is not a Parley backup; nothing was restored from it.</source>
        <translation>{name} 不是 Parley 备份；未从中恢复任何内容。</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/backup/errors.py" line="69"/>
        <source>This backup was made by a newer Parley (backup format {found}). Update Parley to open it; nothing was changed.</source>
        <translation>此备份由更新版本的 Parley 创建（备份格式 {found}）。请更新 Parley 后再打开；未做任何更改。</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/backup/errors.py" line="79"/>
        <source>This backup holds a database from a newer Parley (version {found}; this Parley knows up to {known}). Update Parley to restore it; nothing was changed.</source>
        <translation>此备份包含来自更新版本 Parley 的数据库（版本 {found}；当前版本最高支持 {known}）。请更新 Parley 后再恢复；未做任何更改。</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/backup/errors.py" line="89"/>
        <source>This backup&apos;s contents are not laid out as Parley writes them ({detail}); nothing was restored from it.</source>
        <translation>此备份的内容结构与 Parley 写入的不符（{detail}）；未从中恢复任何内容。</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/backup/errors.py" line="98"/>
        <source>Parley could not read {path} ({reason}); nothing was changed.</source>
        <translation>Parley 无法读取 {path}（{reason}）；未做任何更改。</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/backup/errors.py" line="108"/>
        <source>This backup&apos;s passphrase protection is set for a much faster computer than this one ({detail}); open it on a faster computer. Nothing was changed.</source>
        <translation>此备份的密码保护是按比这台电脑快得多的电脑设置的（{detail}）；请在更快的电脑上打开。未做任何更改。</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/backup/errors.py" line="119"/>
        <source>There is not enough free space in {folder} to {doing}. Free some space there or choose another folder; nothing was changed.</source>
        <translation>{folder} 的可用空间不足，无法{doing}。请在该位置释放一些空间，或选择其他文件夹；未做任何更改。</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/backup/errors.py" line="124"/>
        <source>There is not enough free space in {folder} to {doing} ({free} free). Free some space there or choose another folder; nothing was changed.</source>
        <translation>{folder} 的可用空间不足，无法{doing}（剩余 {free}）。请在该位置释放一些空间，或选择其他文件夹；未做任何更改。</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/backup/errors.py" line="133"/>
        <source>Parley could not write to {folder} ({reason}); nothing was changed.</source>
        <translation>Parley 无法写入 {folder}（{reason}）；未做任何更改。</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/backup/errors.py" line="142"/>
        <source>The backup was cancelled; no backup file was left behind.</source>
        <translation>备份已取消；未留下备份文件。</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/backup/errors.py" line="144"/>
        <source>Opening the backup was cancelled; nothing was restored from it.</source>
        <translation>已取消打开备份；未从中恢复任何内容。</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/backup/manifest.py" line="67"/>
        <source>its manifest is not JSON</source>
        <translation>清单不是 JSON</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/backup/manifest.py" line="69"/>
        <source>its manifest is not a JSON object</source>
        <translation>清单不是 JSON 对象</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/backup/manifest.py" line="96"/>
        <source>its manifest has no valid {field}</source>
        <translation>清单中没有有效的 {field}</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/backup/service.py" line="230"/>
        <source>The last backup was cancelled.</source>
        <translation>上次备份已取消。</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/backup/service.py" line="248"/>
        <source>Enter the backup passphrase in File → Back Up… to back up.</source>
        <translation>请在“文件 → 备份…”中输入备份密码后再备份。</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/backup/service.py" line="301"/>
        <source>The backup was written, but older backups could not be removed: {error}</source>
        <translation>备份已写入，但无法删除较早的备份：{error}</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/backup/service.py" line="348"/>
        <source>The backup&apos;s attachments could not be copied here: {reason}; nothing changed.</source>
        <translation>无法将备份中的附件复制到这里：{reason}；未做任何更改。</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/backup/service.py" line="354"/>
        <source>The restore was cancelled; nothing changed.</source>
        <translation>恢复已取消；未做任何更改。</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/backup/service.py" line="389"/>
        <source>Choose where backups go first, in File → Back Up….</source>
        <translation>请先在“文件 → 备份…”中选择备份的存放位置。</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/backup/snapshot.py" line="112"/>
        <source>copy the database for the backup</source>
        <translation>为备份复制数据库</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/importers/attach.py" line="90"/>
        <source>a message can carry at most {count} files</source>
        <translation>一条消息最多可带 {count} 个文件</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/importers/attach.py" line="111"/>
        <source>The file {name} was attached here; it could not be imported: {problem}.</source>
        <translation>此处附有文件 {name}，但无法导入：{problem}。</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/importers/attach.py" line="131"/>
        <source>files cannot be kept in this window</source>
        <translation>此窗口中无法保存文件</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/importers/attach.py" line="140"/>
        <source>too large</source>
        <translation>文件过大</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/importers/attach.py" line="163"/>
        <source>the export could not be opened again ({error})</source>
        <translation>无法再次打开导出（{error}）</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/remote/errors.py" line="46"/>
        <source>The account has no permission to do this at {where}. Check the account&apos;s permissions on the server.</source>
        <translation>该账户无权在 {where} 执行此操作。请检查该账户在服务器上的权限。</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/remote/errors.py" line="43"/>
        <source>The server refused the user name or password for {where}. Check them in {settings}</source>
        <translation>{where} 的服务器拒绝了用户名或密码。请在{settings}中检查。</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/remote/errors.py" line="50"/>
        <source>Nothing was found at {where}. Check the address in {settings}</source>
        <translation>在 {where} 找不到任何内容。请在{settings}中检查地址。</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/remote/errors.py" line="53"/>
        <source>The storage at {where} is out of space. Free some space there (or delete old backups) and try again.</source>
        <translation>{where} 的存储空间已满。请在那里释放一些空间（或删除旧备份）后重试。</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/remote/errors.py" line="57"/>
        <source>The server at {where} did not answer in time. Check the network connection and try again later.</source>
        <translation>{where} 的服务器未及时响应。请检查网络连接，稍后重试。</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/remote/errors.py" line="61"/>
        <source>A secure connection to {where} could not be made: the server&apos;s certificate could not be verified. Check the address, or set a CA bundle in Settings → Network if it uses your own certificate authority.</source>
        <translation>无法与 {where} 建立安全连接：无法验证服务器的证书。请检查地址；如果服务器使用的是你自己的证书颁发机构，请在“设置 → 网络”中设置 CA 证书包。</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/remote/errors.py" line="66"/>
        <source>Parley could not connect to {where}. Check the address and the network connection, and that the server is running.</source>
        <translation>Parley 无法连接到 {where}。请检查地址和网络连接，并确认服务器正在运行。</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/remote/errors.py" line="70"/>
        <source>A file of that name already exists at {where}, written by another device.</source>
        <translation>{where} 中已有另一台设备写入的同名文件。</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/remote/errors.py" line="73"/>
        <source>The server at {where} had an internal problem. Try again later; if it keeps happening, ask the server&apos;s administrator.</source>
        <translation>{where} 的服务器出现内部错误。请稍后重试；如果问题持续出现，请联系服务器管理员。</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/remote/errors.py" line="77"/>
        <source>The server at {where} gave an answer Parley cannot read. Check that the address is a WebDAV folder or an S3 endpoint.</source>
        <translation>{where} 的服务器返回了 Parley 无法读取的响应。请确认该地址是 WebDAV 文件夹或 S3 端点。</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/remote/errors.py" line="80"/>
        <source>Parley could not use the folder {where}.</source>
        <translation>Parley 无法使用文件夹 {where}。</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/remote/errors.py" line="90"/>
        <source>File → Back Up…</source>
        <translation>“文件 → 备份…”</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/remote/errors.py" line="126"/>
        <source>{message} ({detail})</source>
        <translation>{message}（{detail}）</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/remote/errors.py" line="137"/>
        <source>There is no file named {name} at {where}.</source>
        <translation>{where} 中没有名为 {name} 的文件。</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/remote/errors.py" line="146"/>
        <source>A file named {name} already exists at {where}.</source>
        <translation>{where} 中已存在名为 {name} 的文件。</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/remote/errors.py" line="173"/>
        <location filename="../../desktop/engine/remote/webdav.py" line="217"/>
        <source>HTTP {status}</source>
        <translation>HTTP {status}</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/remote/errors.py" line="181"/>
        <source>The server at {where} gave an unexpected answer.</source>
        <translation>{where} 的服务器返回了意外的响应。</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/remote/errors.py" line="218"/>
        <source>The connection to {where} broke off in the middle of an answer. Try again; if it keeps happening, check the server or the proxy.</source>
        <translation>与 {where} 的连接在响应中途断开。请重试；如果问题持续出现，请检查服务器或代理。</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/remote/errors.py" line="226"/>
        <source>The connection to {where} was interrupted. Check the network connection and try again.</source>
        <translation>与 {where} 的连接已中断。请检查网络连接后重试。</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/remote/errors.py" line="241"/>
        <source>Parley is not allowed to write to the folder {where}. Check the folder&apos;s permissions, or choose another folder in {settings}</source>
        <translation>Parley 没有写入文件夹 {where} 的权限。请检查该文件夹的权限，或在{settings}中选择其他文件夹。</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/remote/errors.py" line="249"/>
        <source>The folder {where} does not exist.</source>
        <translation>文件夹 {where} 不存在。</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/remote/s3.py" line="220"/>
        <source>The bucket {bucket} does not exist at {endpoint}. Check the bucket name in {settings}, or create the bucket first.</source>
        <translation>{endpoint} 上不存在存储桶 {bucket}。请在{settings}中检查存储桶名称，或先创建该存储桶。</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/remote/s3.py" line="242"/>
        <source>The bucket at {where} is in the region {region}. Set that region in {settings}</source>
        <translation>{where} 的存储桶位于区域 {region}。请在{settings}中设置该区域。</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/remote/s3.py" line="246"/>
        <source>The bucket at {where} is in another region. Check the region.</source>
        <translation>{where} 的存储桶位于其他区域。请检查区域设置。</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/remote/s3.py" line="288"/>
        <source>not a bucket listing</source>
        <translation>不是存储桶的文件列表</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/remote/s3.py" line="294"/>
        <source>a listing that cannot go on</source>
        <translation>文件列表无法继续读取</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/remote/webdav.py" line="57"/>
        <source>The server at {where} did not answer like a WebDAV server. Check that the address is the WebDAV address of a folder (for Nextcloud: …/remote.php/dav/files/&lt;user&gt;/…).</source>
        <translation>{where} 的服务器响应不像 WebDAV 服务器。请确认该地址是某个文件夹的 WebDAV 地址（Nextcloud 的格式为：…/remote.php/dav/files/&lt;user&gt;/…）。</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/remote/webdav.py" line="86"/>
        <source>no multistatus element</source>
        <translation>缺少 multistatus 元素</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/remote/webdav.py" line="92"/>
        <source>an entry without an address</source>
        <translation>有条目缺少地址</translation>
    </message>
    <message>
        <location filename="../../desktop/storage/restore_common.py" line="70"/>
        <source>The backup&apos;s database {path} is missing, so nothing was restored.</source>
        <translation>备份中的数据库 {path} 缺失，因此未恢复任何内容。</translation>
    </message>
    <message>
        <location filename="../../desktop/storage/restore_common.py" line="96"/>
        <source>The backup&apos;s database is at schema version {found}, not {known}: it must be prepared for this version of Parley first. Nothing was restored.</source>
        <translation>备份中数据库的结构版本为 {found}，而不是 {known}：必须先将其转换为适用于此版本 Parley 的格式。未恢复任何内容。</translation>
    </message>
    <message>
        <location filename="../../desktop/storage/restore_common.py" line="121"/>
        <source>Parley could not restore the backup</source>
        <translation>Parley 无法恢复备份</translation>
    </message>
    <message>
        <location filename="../../desktop/storage/restore_common.py" line="122"/>
        <location filename="../../desktop/storage/restore_merge.py" line="152"/>
        <location filename="../../desktop/storage/restore_replace.py" line="91"/>
        <source>Free some space there and try again; nothing was changed.</source>
        <translation>请在该磁盘上释放一些空间后重试；未做任何更改。</translation>
    </message>
    <message>
        <location filename="../../desktop/storage/restore_common.py" line="127"/>
        <source>The backup&apos;s data could not be restored ({reason}); nothing was changed. The backup may be damaged.</source>
        <translation>无法恢复备份中的数据（{reason}）；未做任何更改。备份可能已损坏。</translation>
    </message>
    <message>
        <location filename="../../desktop/storage/restore_merge.py" line="123"/>
        <source>This backup was made by a newer version of Parley. Update Parley to restore it; nothing was changed.</source>
        <translation>此备份由更新版本的 Parley 创建。请更新 Parley 后再恢复；未做任何更改。</translation>
    </message>
    <message>
        <location filename="../../desktop/storage/restore_merge.py" line="130"/>
        <source>The backup&apos;s database could not be read ({reason}). The backup may be damaged; nothing was changed.</source>
        <translation>无法读取备份中的数据库（{reason}）。备份可能已损坏；未做任何更改。</translation>
    </message>
    <message>
        <location filename="../../desktop/storage/restore_merge.py" line="141"/>
        <source>The backup&apos;s database could not be brought up to this version of Parley ({reason}); nothing was changed.</source>
        <translation>无法将备份中的数据库升级到此版本的 Parley（{reason}）；未做任何更改。</translation>
    </message>
    <message>
        <location filename="../../desktop/storage/restore_merge.py" line="151"/>
        <source>Parley could not prepare the backup for restoring</source>
        <translation>Parley 无法为恢复准备备份</translation>
    </message>
    <message>
        <location filename="../../desktop/storage/restore_merge.py" line="167"/>
        <source>The backup&apos;s database {name} could not be read ({reason}). The backup may be damaged; nothing was changed.</source>
        <translation>无法读取备份中的数据库 {name}（{reason}）。备份可能已损坏；未做任何更改。</translation>
    </message>
    <message>
        <location filename="../../desktop/storage/restore_merge.py" line="265"/>
        <source>The backup&apos;s message {id} belongs to another conversation here than in the backup, so merging would tie the two together. Nothing was restored; replacing this device&apos;s data with the backup is still possible.</source>
        <translation>备份中的消息 {id} 在本机所属的对话与在备份中不同，合并会把这两个对话关联在一起。未恢复任何内容；仍可以用备份替换本机的数据。</translation>
    </message>
    <message>
        <location filename="../../desktop/storage/restore_merge.py" line="348"/>
        <source>The backup&apos;s message {id} replies to a message of another conversation. Nothing was restored.</source>
        <translation>备份中的消息 {id} 回复的是另一个对话中的消息。未恢复任何内容。</translation>
    </message>
    <message>
        <location filename="../../desktop/storage/restore_replace.py" line="88"/>
        <source>Parley could not keep a copy of its database{size} before restoring</source>
        <translation>恢复前，Parley 无法为数据库{size}保留副本</translation>
    </message>
    <message>
        <location filename="../../desktop/storage/restore_replace.py" line="95"/>
        <source>Parley could not keep a copy of its database before restoring ({reason}); nothing was changed.</source>
        <translation>恢复前，Parley 无法为数据库保留副本（{reason}）；未做任何更改。</translation>
    </message>
    <message>
        <location filename="../../desktop/core/sync_settings.py" line="54"/>
        <source>must be a whole number from {least} to {most}</source>
        <translation>必须是 {least} 到 {most} 之间的整数</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/sync/blobs.py" line="93"/>
        <source>An attached file at the storage is not the file its message names.</source>
        <translation>存储中的某个附件与其所属消息记录的文件不一致。</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/sync/blobs.py" line="101"/>
        <source>An attached file at the storage cannot be decrypted with the vault key.</source>
        <translation>存储中的某个附件无法用保险库密钥解密。</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/sync/codec.py" line="102"/>
        <source>it cannot be decrypted with the vault key</source>
        <translation>无法用保险库密钥解密</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/sync/codec.py" line="150"/>
        <location filename="../../desktop/engine/sync/codec.py" line="154"/>
        <location filename="../../desktop/engine/sync/codec.py" line="161"/>
        <location filename="../../desktop/engine/sync/codec.py" line="163"/>
        <source>The vault&apos;s key file is damaged.</source>
        <translation>保险库的密钥文件已损坏。</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/sync/codec.py" line="207"/>
        <source>it is larger than any segment Parley writes</source>
        <translation>它比 Parley 写入的任何分段都大</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/sync/codec.py" line="212"/>
        <location filename="../../desktop/engine/sync/codec.py" line="214"/>
        <source>its contents cannot be read</source>
        <translation>无法读取其内容</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/sync/codec.py" line="220"/>
        <source>segment {n} holds another segment ({other}): segments were swapped or replayed</source>
        <translation>分段 {n} 中装的是另一个分段（{other}）：分段被调换或重放</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/sync/codec.py" line="226"/>
        <source>segment {n} does not follow the one before it: a segment was dropped or replaced</source>
        <translation>分段 {n} 与前一个分段接不上：有分段被删除或替换</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/sync/codec.py" line="248"/>
        <location filename="../../desktop/engine/sync/codec.py" line="250"/>
        <location filename="../../desktop/engine/sync/codec.py" line="265"/>
        <source>its head cannot be read</source>
        <translation>无法读取其头部</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/sync/codec.py" line="254"/>
        <source>its head belongs to another device: heads were swapped</source>
        <translation>其头部属于另一台设备：头部被调换</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/sync/errors.py" line="31"/>
        <source>This computer is not in a sync vault. Create one or join one in Settings → Sync.</source>
        <translation>这台电脑尚未加入同步保险库。请在“设置 → 同步”中创建或加入一个。</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/sync/errors.py" line="39"/>
        <source>That passphrase or recovery key does not open this vault. Check it and try again; without either, the synced data cannot be read.</source>
        <translation>该密码短语或恢复密钥无法打开这个保险库。请检查后重试；两者都没有的话，同步的数据将无法读取。</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/sync/errors.py" line="49"/>
        <source>Changes from {device} were refused: {detail}. The storage may have been altered; the other devices&apos; changes were still applied.</source>
        <translation>已拒绝来自 {device} 的更改：{detail}。存储可能被篡改过；其他设备的更改仍已应用。</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/sync/errors.py" line="58"/>
        <source>The vault was written by a newer version of Parley. Update Parley to sync.</source>
        <translation>该保险库由更新版本的 Parley 写入。请更新 Parley 后再同步。</translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/engine/sync/errors.py" line="66"/>
        <source>%n change(s) from {device} could not be read and were passed over; its other changes were applied. That computer may run a newer or a faulty Parley.</source>
        <translation>
            <numerusform>来自 {device} 的 %n 项更改无法读取，已跳过；它的其他更改已应用。那台电脑上的 Parley 可能是更新的版本，或者有故障。</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../desktop/engine/sync/exchange.py" line="83"/>
        <source>its newest changes are missing from the storage</source>
        <translation>它最新的更改已从存储中消失</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/sync/exchange.py" line="161"/>
        <source>the storage served an older or altered copy of its changes</source>
        <translation>存储提供的是其更改的旧副本或被篡改的副本</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/sync/exchange.py" line="169"/>
        <source>segment {n} is missing</source>
        <translation>缺少分段 {n}</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/sync/exchange.py" line="173"/>
        <source>segment {n} is not the one its head names</source>
        <translation>分段 {n} 与其头部记录的不一致</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/sync/exchange.py" line="247"/>
        <source>This computer&apos;s own changes at the storage were altered ({detail}).</source>
        <translation>存储中这台电脑自己的更改被篡改了（{detail}）。</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/sync/service.py" line="496"/>
        <source>There is a vault at {where} already. Join it instead.</source>
        <translation>{where} 已有一个保险库。请改为加入它。</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/sync/service.py" line="241"/>
        <source>There is no Parley vault at {where}. Create one first.</source>
        <translation>{where} 没有 Parley 保险库。请先创建一个。</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/sync/service.py" line="413"/>
        <source>This computer was removed from the sync vault on another device. Its chats stay here; join the vault again to sync.</source>
        <translation>这台电脑已在另一台设备上被移出同步保险库。它的聊天仍保留在这里；重新加入保险库即可继续同步。</translation>
    </message>
    <message>
        <location filename="../../desktop/engine/sync/service.py" line="490"/>
        <source>Settings → Sync</source>
        <translation>“设置 → 同步”</translation>
    </message>
</context>
<context>
    <name>AppearancePage</name>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/appearance_page.py" line="20"/>
        <location filename="../../desktop/ui/views/settings_pages/appearance_page.py" line="29"/>
        <source>Follow the system</source>
        <translation>跟随系统</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/appearance_page.py" line="24"/>
        <source>Parley changes language when it next starts.</source>
        <translation>Parley 将在下次启动时切换语言。</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/appearance_page.py" line="30"/>
        <source>Light</source>
        <translation>浅色</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/appearance_page.py" line="31"/>
        <source>Dark</source>
        <translation>深色</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/appearance_page.py" line="34"/>
        <source>System</source>
        <translation>系统默认</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/appearance_page.py" line="35"/>
        <source> pt</source>
        <translation> pt</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/appearance_page.py" line="36"/>
        <source>Load remote images</source>
        <translation>加载远程图片</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/appearance_page.py" line="40"/>
        <source>Show images that answers link to (https only) inside the message. Fetching an image tells its server your address; while off, images are links.</source>
        <translation>在消息中显示回答所链接的图片（仅限 https）。获取图片会让其服务器得知你的 IP 地址；关闭时图片显示为链接。</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/appearance_page.py" line="56"/>
        <source>Language</source>
        <translation>语言</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/appearance_page.py" line="58"/>
        <source>Theme</source>
        <translation>主题</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/appearance_page.py" line="59"/>
        <source>Text size</source>
        <translation>字号</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/appearance_page.py" line="60"/>
        <source>Images</source>
        <translation>图片</translation>
    </message>
</context>
<context>
    <name>ApprovalDialog</name>
    <message numerus="yes">
        <location filename="../../desktop/ui/views/approval_dialog.py" line="80"/>
        <source>Allow %n tool call(s)?</source>
        <translation>
            <numerusform>允许 %n 个工具调用吗？</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/approval_dialog.py" line="98"/>
        <source>Allow all once</source>
        <translation>全部允许一次</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/approval_dialog.py" line="108"/>
        <source>The model wants to use tools. Nothing runs until you decide.</source>
        <translation>模型想要使用工具。在你做出决定之前不会运行任何工具。</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/approval_dialog.py" line="99"/>
        <source>Deny all</source>
        <translation>全部拒绝</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/approval_dialog.py" line="102"/>
        <source>Decide later</source>
        <translation>稍后决定</translation>
    </message>
</context>
<context>
    <name>ApprovalPreview</name>
    <message>
        <location filename="../../desktop/ui/viewmodels/approval_preview.py" line="143"/>
        <source>Other arguments: %1</source>
        <translation>其他参数：%1</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/approval_preview.py" line="176"/>
        <location filename="../../desktop/ui/viewmodels/approval_preview.py" line="230"/>
        <source>in %1</source>
        <translation>在 %1 中</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/approval_preview.py" line="180"/>
        <source>in the chat&apos;s workspace folder (none is set: it will not run)</source>
        <translation>在对话的工作区文件夹中（尚未设置工作区，因此不会运行）</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/approval_preview.py" line="184"/>
        <source>in the folder its server chooses</source>
        <translation>在其服务器选定的文件夹中</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/approval_preview.py" line="187"/>
        <source>Run this command</source>
        <translation>运行此命令</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/approval_preview.py" line="239"/>
        <source>Change %1 of %2</source>
        <translation>第 %1 处修改（共 %2 处）</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/approval_preview.py" line="243"/>
        <source>Change this file</source>
        <translation>修改此文件</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/approval_preview.py" line="260"/>
        <source>The file already holds exactly this text.</source>
        <translation>文件内容已与此文本完全相同。</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/approval_preview.py" line="264"/>
        <location filename="../../desktop/ui/viewmodels/approval_preview.py" line="275"/>
        <source>Replace this file</source>
        <translation>替换此文件</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/approval_preview.py" line="271"/>
        <source>Write this file</source>
        <translation>写入此文件</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/approval_preview.py" line="273"/>
        <source>Create this file</source>
        <translation>创建此文件</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/approval_preview.py" line="278"/>
        <source>The file there now is too large or not text to compare.</source>
        <translation>现有文件过大或不是文本，无法比较。</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/approval_preview.py" line="308"/>
        <source>on %1</source>
        <translation>位于 %1</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/approval_preview.py" line="315"/>
        <source>Read this web page</source>
        <translation>读取此网页</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/approval_preview.py" line="317"/>
        <source>Open this address</source>
        <translation>打开此地址</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/approval_preview.py" line="332"/>
        <source>Use the tool with these arguments</source>
        <translation>使用以下参数调用工具</translation>
    </message>
</context>
<context>
    <name>Approvals</name>
    <message>
        <location filename="../../desktop/ui/viewmodels/approvals.py" line="78"/>
        <source>May change files or run commands</source>
        <translation>可能修改文件或运行命令</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/approvals.py" line="80"/>
        <source>Reads only</source>
        <translation>仅读取</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/approvals.py" line="81"/>
        <source>Changes files</source>
        <translation>修改文件</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/approvals.py" line="82"/>
        <source>Runs commands</source>
        <translation>运行命令</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/approvals.py" line="94"/>
        <source>Built-in tool</source>
        <translation>内置工具</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/approvals.py" line="96"/>
        <source>Unknown source</source>
        <translation>来源未知</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/approvals.py" line="97"/>
        <source>From the MCP server “%1”</source>
        <translation>来自 MCP 服务器“%1”</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/approvals.py" line="107"/>
        <source>Parley does not know this tool&apos;s description yet: its server has not started. It is shown here as soon as the server is up.</source>
        <translation>Parley 还不了解此工具的说明：它的服务器尚未启动。服务器启动后，说明会立即显示在这里。</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/approvals.py" line="112"/>
        <source>Parley does not know this tool.</source>
        <translation>Parley 不了解此工具。</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/approvals.py" line="134"/>
        <source>Possible once Parley knows what this tool is</source>
        <translation>Parley 了解此工具后才可选择</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/approvals.py" line="222"/>
        <source>Could not save to %1: %2</source>
        <translation>无法保存到 %1：%2</translation>
    </message>
</context>
<context>
    <name>AssistantMessage</name>
    <message>
        <location filename="../../desktop/ui/views/message_widget.py" line="451"/>
        <source>Review tool calls…</source>
        <translation>查看工具调用…</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/message_widget.py" line="495"/>
        <source>…</source>
        <translation>…</translation>
    </message>
</context>
<context>
    <name>AssistantPicker</name>
    <message>
        <location filename="../../desktop/ui/views/assistant_picker.py" line="74"/>
        <location filename="../../desktop/ui/views/assistant_picker.py" line="76"/>
        <source>The assistant this conversation talks to</source>
        <translation>此对话使用的助手</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/assistant_picker.py" line="75"/>
        <source>Assistant</source>
        <translation>助手</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/assistant_picker.py" line="81"/>
        <source>Conversation prompt…</source>
        <translation>对话提示词…</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/assistant_picker.py" line="82"/>
        <source>Conversation prompt</source>
        <translation>对话提示词</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/assistant_picker.py" line="109"/>
        <source>Give this conversation its own system prompt</source>
        <translation>为此对话设置专属的系统提示词</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/assistant_picker.py" line="111"/>
        <source>This assistant keeps its own system prompt</source>
        <translation>此助手使用固定的系统提示词</translation>
    </message>
</context>
<context>
    <name>AssistantsModel</name>
    <message>
        <location filename="../../desktop/ui/viewmodels/assistants.py" line="86"/>
        <source>None — use the model selected in the chat</source>
        <translation>无 — 使用对话中选择的模型</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/assistants.py" line="97"/>
        <source>%1 (not configured)</source>
        <translation>%1（未配置）</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/assistants.py" line="122"/>
        <source>New assistant</source>
        <translation>新助手</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/assistants.py" line="123"/>
        <location filename="../../desktop/ui/viewmodels/assistants.py" line="133"/>
        <source>Assistant %1 added</source>
        <translation>已添加助手 %1</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/assistants.py" line="131"/>
        <source>%1 (copy)</source>
        <translation>%1（副本）</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/assistants.py" line="140"/>
        <source>Assistant %1 changed</source>
        <translation>已修改助手 %1</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/assistants.py" line="148"/>
        <source>Assistant %1 deleted</source>
        <translation>已删除助手 %1</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/assistants.py" line="162"/>
        <source>Default assistant changed</source>
        <translation>已更改默认助手</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/assistants.py" line="183"/>
        <source>%1 %2.</source>
        <translation>%1：%2。</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/assistants.py" line="208"/>
        <source>Could not save settings: %1</source>
        <translation>无法保存设置：%1</translation>
    </message>
</context>
<context>
    <name>AssistantsPage</name>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/assistants_page.py" line="81"/>
        <source>Add an assistant for each kind of work: its own prompt, model, tools and documents.</source>
        <translation>为每类工作添加一个助手：各自拥有提示词、模型、工具和文档。</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/assistants_page.py" line="88"/>
        <source>Add</source>
        <translation>添加</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/assistants_page.py" line="90"/>
        <source>Duplicate</source>
        <translation>创建副本</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/assistants_page.py" line="92"/>
        <source>Delete</source>
        <translation>删除</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/assistants_page.py" line="94"/>
        <source>Make default</source>
        <translation>设为默认</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/assistants_page.py" line="95"/>
        <source>New conversations talk to this assistant</source>
        <translation>新对话将使用此助手</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/assistants_page.py" line="105"/>
        <source>How the assistant should behave</source>
        <translation>助手应如何表现</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/assistants_page.py" line="111"/>
        <source>One per line, e.g. “Quiz me on this week&apos;s vocabulary”</source>
        <translation>每行一条，例如“考考我本周学的单词”</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/assistants_page.py" line="114"/>
        <source>Up to %1 messages a new chat offers to send with one click</source>
        <translation>新对话中可一键发送的消息，最多 %1 条</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/assistants_page.py" line="125"/>
        <source>Model&apos;s default</source>
        <translation>模型默认值</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/assistants_page.py" line="133"/>
        <source>The chat&apos;s choice</source>
        <translation>跟随对话设置</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/assistants_page.py" line="135"/>
        <location filename="../../desktop/ui/views/settings_pages/assistants_page.py" line="175"/>
        <source>Off</source>
        <translation>关闭</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/assistants_page.py" line="136"/>
        <source>Low</source>
        <translation>低</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/assistants_page.py" line="137"/>
        <source>Medium</source>
        <translation>中</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/assistants_page.py" line="138"/>
        <source>High</source>
        <translation>高</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/assistants_page.py" line="139"/>
        <source>Maximum</source>
        <translation>最高</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/assistants_page.py" line="146"/>
        <source> tokens</source>
        <translation> Token</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/assistants_page.py" line="148"/>
        <source>A chat may use its own prompt instead</source>
        <translation>允许对话改用自己的提示词</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/assistants_page.py" line="150"/>
        <source>A conversation may replace the system prompt with its own</source>
        <translation>允许对话用自己的提示词替换系统提示词</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/assistants_page.py" line="162"/>
        <source>Add libraries in Settings → Knowledge</source>
        <translation>请在“设置 → 知识库”中添加知识库</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/assistants_page.py" line="164"/>
        <source>May search your earlier chats</source>
        <translation>可搜索你以往的对话</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/assistants_page.py" line="167"/>
        <source>A model that can call tools may look through your other chats with this assistant&apos;s answers, and cite them. The chat you are in is left out.</source>
        <translation>支持工具调用的模型可以查阅你与此助手的其他对话，并加以引用。当前所在的对话不包括在内。</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/assistants_page.py" line="176"/>
        <source>All its memories, in every answer</source>
        <translation>每次回答都使用全部记忆</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/assistants_page.py" line="177"/>
        <source>The memories that fit each message</source>
        <translation>仅使用与每条消息相关的记忆</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/assistants_page.py" line="180"/>
        <source>Also memories kept for all assistants</source>
        <translation>同时使用所有助手共享的全局记忆</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/assistants_page.py" line="186"/>
        <source>When the model needs them, if it can call tools</source>
        <translation>由模型按需搜索（需支持工具调用）</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/assistants_page.py" line="187"/>
        <source>Before every answer</source>
        <translation>每次回答前</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/assistants_page.py" line="188"/>
        <source>Only when the model asks (tool calling)</source>
        <translation>仅在模型请求时（工具调用）</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/assistants_page.py" line="193"/>
        <source>A model that can call tools searches your documents when it needs to, so it starts answering at once. Before every answer: the best passages for your message are found first and given to any model.</source>
        <translation>支持工具调用的模型会在需要时自行搜索你的文档，因此可以立即开始回答。“每次回答前”：先找出与你的消息最相关的段落，再提供给模型，适用于任何模型。</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/assistants_page.py" line="235"/>
        <source>Icon and name</source>
        <translation>图标和名称</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/assistants_page.py" line="240"/>
        <source>System prompt</source>
        <translation>系统提示词</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/assistants_page.py" line="241"/>
        <source>Conversation starters</source>
        <translation>开场问题</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/assistants_page.py" line="242"/>
        <source>Default model</source>
        <translation>默认模型</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/assistants_page.py" line="243"/>
        <source>Temperature</source>
        <translation>温度</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/assistants_page.py" line="244"/>
        <source>Top-p</source>
        <translation>Top-p</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/assistants_page.py" line="245"/>
        <source>Max output tokens</source>
        <translation>最大输出 Token 数</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/assistants_page.py" line="246"/>
        <source>Reasoning effort</source>
        <translation>思考强度</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/assistants_page.py" line="247"/>
        <source>Summarise history above</source>
        <translation>历史超过此长度时摘要</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/assistants_page.py" line="248"/>
        <source>Tools</source>
        <translation>工具</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/assistants_page.py" line="252"/>
        <source>Knowledge</source>
        <translation>知识库</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/assistants_page.py" line="253"/>
        <source>Search documents</source>
        <translation>搜索文档</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/assistants_page.py" line="255"/>
        <source>Memories</source>
        <translation>记忆</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/assistants_page.py" line="480"/>
        <source>Saved.</source>
        <translation>已保存。</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/assistants_page.py" line="296"/>
        <source>(default)</source>
        <translation>（默认）</translation>
    </message>
</context>
<context>
    <name>AttachmentChip</name>
    <message>
        <location filename="../../desktop/ui/views/attachment_chips.py" line="77"/>
        <source>Truncated at %1 characters</source>
        <translation>已截断至 %1 个字符</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/attachment_chips.py" line="119"/>
        <source>Remove</source>
        <translation>移除</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/attachment_chips.py" line="121"/>
        <source>Remove %1</source>
        <translation>移除 %1</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/attachment_chips.py" line="138"/>
        <source>Adding…</source>
        <translation>正在添加…</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/attachment_chips.py" line="141"/>
        <source>%1 · truncated</source>
        <translation>%1 · 已截断</translation>
    </message>
</context>
<context>
    <name>AttachmentFiles</name>
    <message>
        <location filename="../../desktop/ui/viewmodels/attachment_tray.py" line="140"/>
        <source>%1: no application to open it was found.</source>
        <translation>%1：未找到可打开它的应用程序。</translation>
    </message>
</context>
<context>
    <name>AttachmentNotice</name>
    <message>
        <location filename="../../desktop/ui/views/composer.py" line="373"/>
        <source>Dismiss</source>
        <translation>关闭</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/composer.py" line="374"/>
        <source>Dismiss the notice</source>
        <translation>关闭此提示</translation>
    </message>
</context>
<context>
    <name>AttachmentTray</name>
    <message>
        <location filename="../../desktop/ui/viewmodels/attachment_tray.py" line="247"/>
        <source>Files cannot be attached in this window.</source>
        <translation>此窗口无法添加附件。</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/attachment_tray.py" line="261"/>
        <source>Not attached: %1 — a message can carry at most %2 files.</source>
        <translation>未添加：%1 — 一条消息最多可带 %2 个文件。</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/attachment_tray.py" line="280"/>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
</context>
<context>
    <name>BackupDialog</name>
    <message>
        <location filename="../../desktop/ui/views/backup_dialog.py" line="36"/>
        <source>Back Up and Restore</source>
        <translation>备份与恢复</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/backup_dialog.py" line="50"/>
        <source>Back Up</source>
        <translation>备份</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/backup_dialog.py" line="51"/>
        <source>Restore</source>
        <translation>恢复</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/backup_dialog.py" line="57"/>
        <location filename="../../desktop/ui/views/backup_dialog.py" line="118"/>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/backup_dialog.py" line="74"/>
        <source>&amp;Close</source>
        <translation>关闭(&amp;C)</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/backup_dialog.py" line="121"/>
        <source>Starting…</source>
        <translation>正在开始…</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/backup_dialog.py" line="143"/>
        <source>Cancelling…</source>
        <translation>正在取消…</translation>
    </message>
</context>
<context>
    <name>BackupJob</name>
    <message>
        <location filename="../../desktop/ui/viewmodels/backup_job.py" line="89"/>
        <source>Copying your chats, settings and files into the backup…</source>
        <translation>正在将你的对话、设置和文件复制到备份中…</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/backup_job.py" line="91"/>
        <source>Sending the backup to where backups go…</source>
        <translation>正在将备份上传到备份位置…</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/backup_job.py" line="93"/>
        <source>Fetching the backup…</source>
        <translation>正在获取备份…</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/backup_job.py" line="95"/>
        <source>Unlocking and checking the backup…</source>
        <translation>正在解锁并检查备份…</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/backup_job.py" line="97"/>
        <source>Replacing this computer&apos;s data with the backup&apos;s…</source>
        <translation>正在用备份中的数据替换本机数据…</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/backup_job.py" line="98"/>
        <source>Adding what this computer lacks…</source>
        <translation>正在添加本机缺少的内容…</translation>
    </message>
</context>
<context>
    <name>BackupPanel</name>
    <message>
        <location filename="../../desktop/ui/views/backup_panel.py" line="95"/>
        <source>Re&amp;member in the keyring</source>
        <translation>记住到密钥环(&amp;M)</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/backup_panel.py" line="101"/>
        <source>Without the passphrase nobody, not even you, can open these backups. Keep it somewhere safe.</source>
        <translation>没有密码短语，任何人（包括你自己）都无法打开这些备份。请妥善保管。</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/backup_panel.py" line="116"/>
        <source>Back up every &amp;day while Parley runs</source>
        <translation>Parley 运行期间每天备份(&amp;D)</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/backup_panel.py" line="126"/>
        <source>Back Up &amp;Now</source>
        <translation>立即备份(&amp;N)</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/backup_panel.py" line="132"/>
        <source>Pa&amp;ssphrase</source>
        <translation>密码短语(&amp;S)</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/backup_panel.py" line="135"/>
        <source>&amp;Repeat</source>
        <translation>再次输入(&amp;R)</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/backup_panel.py" line="141"/>
        <source>Keep the &amp;last</source>
        <translation>保留最近(&amp;L)</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/backup_panel.py" line="146"/>
        <source>backups of this computer</source>
        <translation>份本机备份</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/backup_panel.py" line="153"/>
        <source>Where backups go</source>
        <translation>备份位置</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/backup_panel.py" line="156"/>
        <source>Passphrase</source>
        <translation>密码短语</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/backup_panel.py" line="159"/>
        <source>Schedule</source>
        <translation>计划</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/backup_panel.py" line="200"/>
        <source>The keyring is not available (%1): type the passphrase each time you back up.</source>
        <translation>密钥环不可用（%1）：每次备份时都需要输入密码短语。</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/backup_panel.py" line="204"/>
        <source>The passphrase is kept in the keyring: leave the fields empty to use it, or type a new one to use from now on.</source>
        <translation>密码短语已保存在密钥环中：留空即可使用它，或输入新的密码短语以便今后使用。</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/backup_panel.py" line="266"/>
        <source>Type the passphrase in both fields to keep it in the keyring.</source>
        <translation>在两个输入框中都输入密码短语，即可将其保存到密钥环。</translation>
    </message>
</context>
<context>
    <name>BackupViewModel</name>
    <message>
        <location filename="../../desktop/ui/viewmodels/backup.py" line="128"/>
        <source>The last backup failed (%1): %2</source>
        <translation>上次备份失败（%1）：%2</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/backup.py" line="131"/>
        <source>The last good one was made %1.</source>
        <translation>上次成功的备份创建于 %1。</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/backup.py" line="137"/>
        <source>Last backed up %1 as %2.</source>
        <translation>上次备份于 %1，文件为 %2。</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/backup.py" line="142"/>
        <source>Not backed up yet.</source>
        <translation>尚未备份。</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/backup.py" line="189"/>
        <source>Enter the user name (for S3, the access key ID) first.</source>
        <translation>请先输入用户名（S3 为 Access Key ID）。</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/backup.py" line="195"/>
        <source>The keyring could not keep the password (%1), so Parley keeps it only until it quits.</source>
        <translation>密钥环无法保存密码（%1），因此 Parley 只会保留到退出为止。</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/backup.py" line="203"/>
        <source>The two passphrases differ: type the same one in both fields.</source>
        <translation>两次输入的密码短语不一致：请在两个输入框中输入相同的密码短语。</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/backup.py" line="217"/>
        <source>The keyring could not keep the passphrase: %1</source>
        <translation>密钥环无法保存密码短语：%1</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/backup.py" line="243"/>
        <location filename="../../desktop/ui/viewmodels/backup.py" line="259"/>
        <source>Choose where backups go first.</source>
        <translation>请先选择备份的存放位置。</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/backup.py" line="246"/>
        <source>Daily backups need the passphrase kept in the keyring, and the keyring is not available: %1</source>
        <translation>每日备份需要将密码短语保存在密钥环中，但密钥环不可用：%1</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/backup.py" line="251"/>
        <source>Daily backups need the passphrase kept in the keyring: type it above and tick “Remember in the keyring”.</source>
        <translation>每日备份需要将密码短语保存在密钥环中：请在上方输入，并勾选“保存到密钥环”。</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/backup.py" line="261"/>
        <source>A backup or restore is running.</source>
        <translation>正在进行备份或恢复。</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/backup.py" line="266"/>
        <source>Enter a passphrase to lock the backup with.</source>
        <translation>请输入用于加密备份的密码短语。</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/backup.py" line="276"/>
        <source>Fix the field marked above first.</source>
        <translation>请先修正上方标出的字段。</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/backup.py" line="280"/>
        <source>Parley can write to %1.</source>
        <translation>Parley 可以写入 %1。</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/backup.py" line="310"/>
        <source>The backup was cancelled; nothing was changed.</source>
        <translation>备份已取消，未做任何更改。</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/backup.py" line="324"/>
        <source>Backed up: %1 (%2).</source>
        <translation>已备份：%1（%2）。</translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/ui/viewmodels/backup.py" line="326"/>
        <source>Backed up: %1 (%2); removed %Ln older backup(s).</source>
        <translation>
            <numerusform>已备份：%1（%2）；已删除 %Ln 个较早的备份。</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/backup.py" line="341"/>
        <source>The daily backup failed: %1</source>
        <translation>每日备份失败：%1</translation>
    </message>
</context>
<context>
    <name>CallPanel</name>
    <message>
        <location filename="../../desktop/ui/views/approval_call_panel.py" line="118"/>
        <source>Arguments as written</source>
        <translation>原始参数</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/approval_call_panel.py" line="140"/>
        <source>Allow once</source>
        <translation>允许一次</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/approval_call_panel.py" line="141"/>
        <source>Always allow this tool</source>
        <translation>始终允许此工具</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/approval_call_panel.py" line="142"/>
        <source>Deny</source>
        <translation>拒绝</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/approval_call_panel.py" line="143"/>
        <source>Answer instead…</source>
        <translation>改为手动回复…</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/approval_call_panel.py" line="156"/>
        <source>The result the model gets instead</source>
        <translation>模型将收到的替代结果</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/approval_call_panel.py" line="157"/>
        <source>Send answer</source>
        <translation>发送回复</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/approval_call_panel.py" line="263"/>
        <source>arguments.json</source>
        <translation>arguments.json</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/approval_call_panel.py" line="264"/>
        <source>Save Arguments</source>
        <translation>保存参数</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/approval_call_panel.py" line="276"/>
        <source>Saved to %1</source>
        <translation>已保存到 %1</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/approval_call_panel.py" line="311"/>
        <source>Allowed once</source>
        <translation>已允许一次</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/approval_call_panel.py" line="312"/>
        <source>Always allowed</source>
        <translation>已始终允许</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/approval_call_panel.py" line="313"/>
        <source>Denied</source>
        <translation>已拒绝</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/approval_call_panel.py" line="314"/>
        <source>Answered instead</source>
        <translation>已手动回复</translation>
    </message>
</context>
<context>
    <name>ChatView</name>
    <message>
        <location filename="../../desktop/ui/views/chat_view.py" line="95"/>
        <source>Conversation</source>
        <translation>对话</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/chat_view.py" line="97"/>
        <source>The messages of this chat; arrow and page keys scroll</source>
        <translation>此对话的消息；用方向键和翻页键滚动</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/chat_view.py" line="211"/>
        <source>&amp;Find in Chat…</source>
        <translation>在对话中查找(&amp;F)…</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/chat_view.py" line="214"/>
        <source>Find &amp;Next</source>
        <translation>查找下一个(&amp;N)</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/chat_view.py" line="217"/>
        <source>Find &amp;Previous</source>
        <translation>查找上一个(&amp;P)</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/chat_view.py" line="249"/>
        <source>New chat</source>
        <translation>新对话</translation>
    </message>
</context>
<context>
    <name>ChatViewModel</name>
    <message>
        <location filename="../../desktop/ui/viewmodels/chat.py" line="275"/>
        <source>Add a provider and choose a model first.</source>
        <translation>请先添加服务商并选择模型。</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/chat.py" line="317"/>
        <source>Could not save to %1: %2</source>
        <translation>无法保存到 %1：%2</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/chat.py" line="331"/>
        <source>That chat has been deleted.</source>
        <translation>该对话已被删除。</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/chat.py" line="339"/>
        <source>Parley only opens web pages; this address was not opened: %1</source>
        <translation>Parley 只打开网页；此地址未打开：%1</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/chat.py" line="368"/>
        <source>Parley only opens web and e-mail links; this one was not opened: %1</source>
        <translation>Parley 只打开网页和电子邮件链接；此链接未打开：%1</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/chat.py" line="400"/>
        <source>Your message was not sent and is still here. %1</source>
        <translation>你的消息未发送，仍保留在这里。%1</translation>
    </message>
</context>
<context>
    <name>CitationCard</name>
    <message>
        <location filename="../../desktop/ui/viewmodels/citation_card.py" line="42"/>
        <source>p. %1</source>
        <translation>第 %1 页</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/citation_card.py" line="60"/>
        <source>Untitled chat</source>
        <translation>未命名对话</translation>
    </message>
</context>
<context>
    <name>CitationCardWidget</name>
    <message>
        <location filename="../../desktop/ui/views/citation_cards.py" line="110"/>
        <source>Source %1: %2</source>
        <translation>来源 %1：%2</translation>
    </message>
</context>
<context>
    <name>Composer</name>
    <message>
        <location filename="../../desktop/ui/views/composer.py" line="127"/>
        <source>Message Parley…</source>
        <translation>给 Parley 发消息…</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/composer.py" line="128"/>
        <source>Message</source>
        <translation>消息</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/composer.py" line="130"/>
        <source>Enter sends the message; Shift+Enter starts a new line</source>
        <translation>Enter 发送消息；Shift+Enter 换行</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/composer.py" line="141"/>
        <location filename="../../desktop/ui/views/composer.py" line="143"/>
        <source>Model for the next message</source>
        <translation>下一条消息使用的模型</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/composer.py" line="142"/>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/composer.py" line="148"/>
        <location filename="../../desktop/ui/views/composer.py" line="151"/>
        <source>How long the model may think before it answers</source>
        <translation>模型回答前可以思考多久</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/composer.py" line="149"/>
        <source>Reasoning effort</source>
        <translation>思考强度</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/composer.py" line="154"/>
        <source>Reasoning off</source>
        <translation>关闭思考</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/composer.py" line="155"/>
        <source>Reasoning low</source>
        <translation>思考：低</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/composer.py" line="156"/>
        <source>Reasoning medium</source>
        <translation>思考：中</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/composer.py" line="157"/>
        <source>Reasoning high</source>
        <translation>思考：高</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/composer.py" line="158"/>
        <source>Reasoning max</source>
        <translation>思考：最高</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/composer.py" line="166"/>
        <source>Enter to send · Shift+Enter for a new line</source>
        <translation>Enter 发送 · Shift+Enter 换行</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/composer.py" line="173"/>
        <source>Send</source>
        <translation>发送</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/composer.py" line="175"/>
        <source>Send message</source>
        <translation>发送消息</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/composer.py" line="178"/>
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/composer.py" line="180"/>
        <source>Stop the answer and keep what arrived (Esc)</source>
        <translation>停止回答并保留已收到的内容（Esc）</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/composer.py" line="181"/>
        <source>Stop the answer</source>
        <translation>停止回答</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/composer.py" line="196"/>
        <source>Attach files (or drop or paste them here)</source>
        <translation>添加附件（也可拖放或粘贴到这里）</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/composer.py" line="197"/>
        <location filename="../../desktop/ui/views/composer.py" line="290"/>
        <source>Attach files</source>
        <translation>添加附件</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/composer.py" line="205"/>
        <source>Insert a saved prompt (or type / at the start of a line)</source>
        <translation>插入已保存的提示词（也可在行首输入 /）</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/composer.py" line="207"/>
        <source>Insert a saved prompt</source>
        <translation>插入已保存的提示词</translation>
    </message>
</context>
<context>
    <name>CompressDialog</name>
    <message>
        <location filename="../../desktop/ui/views/summary_divider.py" line="139"/>
        <source>Compress now</source>
        <translation>立即压缩</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/summary_divider.py" line="143"/>
        <source>Optional: what the summary must keep</source>
        <translation>可选：摘要必须保留的内容</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/summary_divider.py" line="145"/>
        <source>Compress</source>
        <translation>压缩</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/summary_divider.py" line="151"/>
        <source>Summarise all but the last few messages now. Nothing is deleted.</source>
        <translation>立即为除最近几条以外的所有消息生成摘要。不会删除任何内容。</translation>
    </message>
</context>
<context>
    <name>Confirm</name>
    <message>
        <location filename="../../desktop/ui/views/confirm.py" line="23"/>
        <source>Delete</source>
        <translation>删除</translation>
    </message>
</context>
<context>
    <name>ContextMeter</name>
    <message>
        <location filename="../../desktop/ui/viewmodels/context_meter.py" line="82"/>
        <source>%1 tokens</source>
        <translation>%1 Token</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/context_meter.py" line="90"/>
        <source>About %1 tokens in the next request (context length unknown)</source>
        <translation>下次请求约 %1 Token（上下文长度未知）</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/context_meter.py" line="95"/>
        <source>About %1 of %2 tokens of context (%3%) in the next request</source>
        <translation>下次请求约占用 %1 / %2 Token 上下文（%3%）</translation>
    </message>
</context>
<context>
    <name>ContextViewModel</name>
    <message>
        <location filename="../../desktop/ui/viewmodels/context.py" line="112"/>
        <source>There is nothing to compress yet.</source>
        <translation>暂时没有可压缩的内容。</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/context.py" line="116"/>
        <source>The summary could not be written: %1</source>
        <translation>无法生成摘要：%1</translation>
    </message>
</context>
<context>
    <name>CutBar</name>
    <message>
        <location filename="../../desktop/ui/views/cut_bar.py" line="28"/>
        <source>Copy all</source>
        <translation>全部复制</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/cut_bar.py" line="29"/>
        <source>Save as file…</source>
        <translation>另存为文件…</translation>
    </message>
</context>
<context>
    <name>DateGroup</name>
    <message>
        <location filename="../../desktop/ui/viewmodels/date_groups.py" line="32"/>
        <source>Pinned</source>
        <translation>已置顶</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/date_groups.py" line="33"/>
        <source>Today</source>
        <translation>今天</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/date_groups.py" line="34"/>
        <source>Yesterday</source>
        <translation>昨天</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/date_groups.py" line="35"/>
        <source>Previous 7 days</source>
        <translation>最近 7 天</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/date_groups.py" line="36"/>
        <source>Older</source>
        <translation>更早</translation>
    </message>
</context>
<context>
    <name>DesktopPage</name>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/desktop_page.py" line="28"/>
        <source>Keep running in the tray when the window closes</source>
        <translation>关闭窗口后继续在托盘中运行</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/desktop_page.py" line="35"/>
        <source>Notify me when an answer is ready or a tool needs approval</source>
        <translation>回答就绪或工具需要批准时通知我</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/desktop_page.py" line="39"/>
        <source>Only while Parley is not the window you are working in.</source>
        <translation>仅在 Parley 不是当前活动窗口时。</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/desktop_page.py" line="48"/>
        <source>None</source>
        <translation>无</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/desktop_page.py" line="49"/>
        <source>No global shortcut</source>
        <translation>不设全局快捷键</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/desktop_page.py" line="70"/>
        <source>Tray</source>
        <translation>托盘</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/desktop_page.py" line="71"/>
        <source>Notifications</source>
        <translation>通知</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/desktop_page.py" line="72"/>
        <source>Floating chat shortcut</source>
        <translation>悬浮窗快捷键</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/desktop_page.py" line="102"/>
        <source>Shows or hides the floating chat, even while another app is in front.</source>
        <translation>显示或隐藏悬浮窗，即使其他应用位于前台。</translation>
    </message>
</context>
<context>
    <name>DesktopSettingsModel</name>
    <message>
        <location filename="../../desktop/ui/viewmodels/desktop_settings.py" line="66"/>
        <source>Parley keeps running in the tray; quit it from the tray menu.</source>
        <translation>Parley 会继续在托盘中运行；可从托盘菜单退出。</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/desktop_settings.py" line="68"/>
        <source>This desktop shows no system tray, so there would be no way back to a hidden window: closing the window quits Parley.</source>
        <translation>当前桌面环境不显示系统托盘，隐藏的窗口将无法恢复：关闭窗口即退出 Parley。</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/desktop_settings.py" line="95"/>
        <source>Shortcut: %1.</source>
        <translation>快捷键：%1。</translation>
    </message>
</context>
<context>
    <name>DesktopShell</name>
    <message>
        <location filename="../../desktop/ui/desktop/shell.py" line="87"/>
        <source>Parley is still running in the tray. Quit it from the tray menu.</source>
        <translation>Parley 仍在托盘中运行。可从托盘菜单退出。</translation>
    </message>
</context>
<context>
    <name>EditActions</name>
    <message>
        <location filename="../../desktop/ui/views/edit_actions.py" line="26"/>
        <source>&amp;Undo</source>
        <translation>撤销(&amp;U)</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/edit_actions.py" line="27"/>
        <source>&amp;Redo</source>
        <translation>重做(&amp;R)</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/edit_actions.py" line="28"/>
        <source>Cu&amp;t</source>
        <translation>剪切(&amp;T)</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/edit_actions.py" line="29"/>
        <source>&amp;Copy</source>
        <translation>复制(&amp;C)</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/edit_actions.py" line="30"/>
        <source>&amp;Paste</source>
        <translation>粘贴(&amp;P)</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/edit_actions.py" line="32"/>
        <source>Select &amp;All</source>
        <translation>全选(&amp;A)</translation>
    </message>
</context>
<context>
    <name>EmbeddingPicker</name>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/embedding_picker.py" line="50"/>
        <source>Model name</source>
        <translation>模型名称</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/embedding_picker.py" line="57"/>
        <source>Refresh list</source>
        <translation>刷新列表</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/embedding_picker.py" line="58"/>
        <source>Ask the provider for its embedding models</source>
        <translation>向服务商查询其嵌入模型</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/embedding_picker.py" line="66"/>
        <source>Model&apos;s default</source>
        <translation>模型默认值</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/embedding_picker.py" line="70"/>
        <source>Dimensions</source>
        <translation>维度</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/embedding_picker.py" line="73"/>
        <source>Without an embedding model a library is searched by its words only. Changing the model embeds every passage again; searching by words keeps working meanwhile.</source>
        <translation>未设置嵌入模型时，知识库仅按关键词搜索。更换模型会重新嵌入所有段落，期间关键词搜索仍可正常使用。</translation>
    </message>
</context>
<context>
    <name>EmptyChat</name>
    <message>
        <location filename="../../desktop/ui/views/empty_chat.py" line="30"/>
        <source>What would you like to talk about?</source>
        <translation>想聊点什么？</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/empty_chat.py" line="35"/>
        <source>Assistant:</source>
        <translation>助手：</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/empty_chat.py" line="39"/>
        <source>Assistant</source>
        <translation>助手</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/empty_chat.py" line="40"/>
        <source>The assistant this conversation will talk to</source>
        <translation>此对话将使用的助手</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/empty_chat.py" line="89"/>
        <source>Start with one of these</source>
        <translation>从这些开始</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/empty_chat.py" line="91"/>
        <source>Try one of these</source>
        <translation>试试这些</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/empty_chat.py" line="103"/>
        <source>Send this as your first message</source>
        <translation>作为第一条消息发送</translation>
    </message>
</context>
<context>
    <name>FindBar</name>
    <message>
        <location filename="../../desktop/ui/views/find_bar.py" line="73"/>
        <location filename="../../desktop/ui/views/find_bar.py" line="74"/>
        <source>Find in chat</source>
        <translation>在对话中查找</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/find_bar.py" line="84"/>
        <source>Previous match (Shift+Enter)</source>
        <translation>上一个匹配（Shift+Enter）</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/find_bar.py" line="86"/>
        <source>Next match (Enter)</source>
        <translation>下一个匹配（Enter）</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/find_bar.py" line="87"/>
        <source>Match case</source>
        <translation>区分大小写</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/find_bar.py" line="89"/>
        <source>Close find (Esc)</source>
        <translation>关闭查找（Esc）</translation>
    </message>
</context>
<context>
    <name>FindModel</name>
    <message>
        <location filename="../../desktop/ui/viewmodels/find.py" line="131"/>
        <source>Searching…</source>
        <translation>正在搜索…</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/find.py" line="132"/>
        <source>No matches</source>
        <translation>无匹配结果</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/find.py" line="136"/>
        <source>%1 of %2</source>
        <translation>%1/%2</translation>
    </message>
</context>
<context>
    <name>FloatingWindow</name>
    <message>
        <location filename="../../desktop/ui/views/floating_window.py" line="133"/>
        <source>Parley — Floating Chat</source>
        <translation>Parley — 悬浮窗</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/floating_window.py" line="150"/>
        <source>Drag to move (Alt+arrows)</source>
        <translation>拖动以移动（Alt+方向键）</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/floating_window.py" line="154"/>
        <location filename="../../desktop/ui/views/floating_window.py" line="164"/>
        <source>New chat</source>
        <translation>新对话</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/floating_window.py" line="155"/>
        <location filename="../../desktop/ui/views/floating_window.py" line="156"/>
        <source>Conversation</source>
        <translation>对话</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/floating_window.py" line="166"/>
        <source>Open in the main window</source>
        <translation>在主窗口中打开</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/floating_window.py" line="168"/>
        <source>More</source>
        <translation>更多</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/floating_window.py" line="171"/>
        <source>Reset Position and Size</source>
        <translation>重置位置和大小</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/floating_window.py" line="174"/>
        <source>Open in Main Window</source>
        <translation>在主窗口中打开</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/floating_window.py" line="176"/>
        <source>Hide</source>
        <translation>隐藏</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/floating_window.py" line="178"/>
        <source>Hide (Esc)</source>
        <translation>隐藏（Esc）</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/floating_window.py" line="189"/>
        <source>What would you like to talk about?</source>
        <translation>想聊点什么？</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/floating_window.py" line="214"/>
        <source>Add a model in the main window to start chatting.</source>
        <translation>请在主窗口中添加模型后开始对话。</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/floating_window.py" line="217"/>
        <source>Open Parley</source>
        <translation>打开 Parley</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/floating_window.py" line="228"/>
        <source>Drag to resize (Alt+Shift+arrows)</source>
        <translation>拖动以调整大小（Alt+Shift+方向键）</translation>
    </message>
</context>
<context>
    <name>FoundServerRow</name>
    <message>
        <location filename="../../desktop/ui/views/found_servers.py" line="26"/>
        <source>no models yet</source>
        <translation>暂无模型</translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/ui/views/found_servers.py" line="26"/>
        <source>%n model(s)</source>
        <translation>
            <numerusform>%n 个模型</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/found_servers.py" line="28"/>
        <source>Found %1 on this computer (%2)</source>
        <translation>在本机发现 %1（%2）</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/found_servers.py" line="34"/>
        <source>Add</source>
        <translation>添加</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/found_servers.py" line="38"/>
        <source>Add %1 at %2 with its models</source>
        <translation>添加位于 %2 的 %1 及其模型</translation>
    </message>
</context>
<context>
    <name>FoundServers</name>
    <message>
        <location filename="../../desktop/ui/views/found_servers.py" line="85"/>
        <source>Looking for model servers on this computer…</source>
        <translation>正在查找本机上的模型服务器…</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/found_servers.py" line="88"/>
        <source>No Ollama, LM Studio, llama.cpp or vLLM server is running here.</source>
        <translation>本机未运行 Ollama、LM Studio、llama.cpp 或 vLLM 服务器。</translation>
    </message>
</context>
<context>
    <name>GlobalShortcut</name>
    <message>
        <location filename="../../desktop/ui/desktop/global_shortcut.py" line="42"/>
        <source>Global shortcuts are not available on macOS yet. Use the tray icon or Chat → Floating Chat instead.</source>
        <translation>macOS 暂不支持全局快捷键。请改用托盘图标或“对话 → 悬浮窗”。</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/desktop/global_shortcut.py" line="49"/>
        <source>Wayland lets no application see keys pressed while another one has focus, so Parley cannot offer a global shortcut here. Use the tray icon or Chat → Floating Chat, or bind a key to Parley in your desktop&apos;s keyboard settings.</source>
        <translation>Wayland 不允许应用获取其他应用获得焦点时的按键，因此 Parley 无法在此提供全局快捷键。请使用托盘图标或“对话 → 悬浮窗”，或在桌面环境的键盘设置中为 Parley 绑定快捷键。</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/desktop/global_shortcut.py" line="56"/>
        <source>Global shortcuts need an X11 or Windows desktop (this is “%1”).</source>
        <translation>全局快捷键需要 X11 或 Windows 桌面（当前为“%1”）。</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/desktop/global_shortcut.py" line="62"/>
        <source>Global shortcuts on X11 need the python-xlib package.</source>
        <translation>在 X11 上使用全局快捷键需要安装 python-xlib 包。</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/desktop/global_shortcut.py" line="160"/>
        <source>“%1” is not a key combination.</source>
        <translation>“%1”不是组合键。</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/desktop/global_shortcut.py" line="165"/>
        <source>%1 needs Ctrl, Alt or Meta, or it would take that key from every app.</source>
        <translation>%1 需要包含 Ctrl、Alt 或 Meta，否则会抢占所有应用中的这个按键。</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/desktop/global_shortcut.py" line="177"/>
        <location filename="../../desktop/ui/desktop/global_shortcut.py" line="183"/>
        <source>Global shortcuts are unavailable: %1</source>
        <translation>全局快捷键不可用：%1</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/desktop/global_shortcut.py" line="187"/>
        <source>%1 is taken by another application.</source>
        <translation>%1 已被其他应用占用。</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/desktop/global_shortcut.py" line="191"/>
        <source>%1 cannot be used as a global shortcut on this keyboard.</source>
        <translation>%1 在此键盘上无法用作全局快捷键。</translation>
    </message>
</context>
<context>
    <name>HeadersEditor</name>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/headers_editor.py" line="31"/>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/headers_editor.py" line="31"/>
        <source>Value</source>
        <translation>值</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/headers_editor.py" line="46"/>
        <source>Add header</source>
        <translation>添加请求头</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/headers_editor.py" line="48"/>
        <source>Remove header</source>
        <translation>移除请求头</translation>
    </message>
</context>
<context>
    <name>ImportDialog</name>
    <message>
        <location filename="../../desktop/ui/views/import_dialog.py" line="73"/>
        <source>Import from Another App</source>
        <translation>从其他应用导入</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/import_dialog.py" line="99"/>
        <location filename="../../desktop/ui/views/import_dialog.py" line="123"/>
        <location filename="../../desktop/ui/views/import_dialog.py" line="139"/>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/import_dialog.py" line="117"/>
        <source>Not imported</source>
        <translation>未导入</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/import_dialog.py" line="120"/>
        <source>Import</source>
        <translation>导入</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/import_dialog.py" line="155"/>
        <source>Open</source>
        <translation>打开</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/import_dialog.py" line="158"/>
        <source>Close</source>
        <translation>关闭</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/import_dialog.py" line="173"/>
        <source>Reading %1…</source>
        <translation>正在读取 %1…</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/import_dialog.py" line="202"/>
        <source>Importing %1 of %2…</source>
        <translation>正在导入第 %1 个对话，共 %2 个…</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/import_dialog.py" line="240"/>
        <source>Cancelling…</source>
        <translation>正在取消…</translation>
    </message>
</context>
<context>
    <name>ImportExportViewModel</name>
    <message>
        <location filename="../../desktop/ui/viewmodels/import_export.py" line="119"/>
        <source>Title</source>
        <translation>标题</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/import_export.py" line="119"/>
        <source>Messages</source>
        <translation>消息数</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/import_export.py" line="119"/>
        <source>Date</source>
        <translation>日期</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/import_export.py" line="121"/>
        <source>Item</source>
        <translation>项目</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/import_export.py" line="121"/>
        <location filename="../../desktop/ui/viewmodels/import_export.py" line="123"/>
        <source>Why</source>
        <translation>原因</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/import_export.py" line="123"/>
        <source>File</source>
        <translation>文件</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/import_export.py" line="160"/>
        <source>Could not read %1: %2</source>
        <translation>无法读取 %1：%2</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/import_export.py" line="174"/>
        <source>Untitled chat</source>
        <translation>未命名对话</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/import_export.py" line="198"/>
        <source>, </source>
        <translation>、</translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/ui/viewmodels/import_export.py" line="200"/>
        <source>%Ln conversation(s)</source>
        <translation>
            <numerusform>%Ln 个对话</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/ui/viewmodels/import_export.py" line="201"/>
        <source>%Ln message(s)</source>
        <translation>
            <numerusform>%Ln 条消息</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/ui/viewmodels/import_export.py" line="202"/>
        <source>%Ln branch(es)</source>
        <translation>
            <numerusform>%Ln 个分支</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/ui/viewmodels/import_export.py" line="203"/>
        <source>%Ln image(s)</source>
        <translation>
            <numerusform>%Ln 张图片</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/import_export.py" line="206"/>
        <source>%1 export: %2</source>
        <translation>%1 导出：%2</translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/ui/viewmodels/import_export.py" line="220"/>
        <source>%Ln image(s) or file(s) will be attached to their messages.</source>
        <translation>
            <numerusform>%Ln 个图片或文件将添加为对应消息的附件。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/ui/viewmodels/import_export.py" line="226"/>
        <source>%Ln image(s) or file(s) will be left out; a note marks each place.</source>
        <translation>
            <numerusform>%Ln 个图片或文件将不会导入；每处均以提示标出。</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/import_export.py" line="260"/>
        <source>Could not import: %1</source>
        <translation>无法导入：%1</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/import_export.py" line="285"/>
        <source>Import cancelled after %1 of %2 conversations.</source>
        <translation>导入已取消，已完成 %1 个对话（共 %2 个）。</translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/ui/viewmodels/import_export.py" line="292"/>
        <source>Imported %Ln conversation(s)</source>
        <translation>
            <numerusform>已导入 %Ln 个对话</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/ui/viewmodels/import_export.py" line="294"/>
        <source>(%Ln message(s))</source>
        <translation>
            <numerusform>（%Ln 条消息）</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/ui/viewmodels/import_export.py" line="297"/>
        <source>Imported %Ln message(s)</source>
        <translation>
            <numerusform>已导入 %Ln 条消息</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/ui/viewmodels/import_export.py" line="299"/>
        <source>%Ln image(s) or file(s) attached</source>
        <translation>
            <numerusform>已将 %Ln 个图片或文件添加为附件</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/ui/viewmodels/import_export.py" line="303"/>
        <source>%Ln conversation(s) already here received new messages</source>
        <translation>
            <numerusform>%Ln 个已有对话新增了消息</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/ui/viewmodels/import_export.py" line="307"/>
        <source>%Ln were already here</source>
        <translation>
            <numerusform>%Ln 个对话已存在</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/import_export.py" line="309"/>
        <location filename="../../desktop/ui/viewmodels/import_export.py" line="328"/>
        <source>; </source>
        <translation>；</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/import_export.py" line="310"/>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/ui/viewmodels/import_export.py" line="314"/>
        <source>%Ln could not be imported: %1</source>
        <translation>
            <numerusform>%Ln 个对话无法导入：%1</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/import_export.py" line="319"/>
        <source>Nothing was imported</source>
        <translation>未导入任何内容</translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/ui/viewmodels/import_export.py" line="323"/>
        <source>%Ln image(s) or file(s) could not be attached (listed below)</source>
        <translation>
            <numerusform>%Ln 个图片或文件无法添加为附件（见下方列表）</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/import_export.py" line="328"/>
        <source>%1.</source>
        <translation>%1。</translation>
    </message>
</context>
<context>
    <name>KeyCaps</name>
    <message>
        <location filename="../../desktop/ui/views/keycaps.py" line="53"/>
        <source>Enter</source>
        <translation>Enter</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/keycaps.py" line="96"/>
        <source>or</source>
        <translation>或</translation>
    </message>
</context>
<context>
    <name>KnowledgePage</name>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/knowledge_page.py" line="94"/>
        <source>Add</source>
        <translation>添加</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/knowledge_page.py" line="96"/>
        <source>Delete</source>
        <translation>删除</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/knowledge_page.py" line="108"/>
        <source>e.g. Product docs</source>
        <translation>例如：产品文档</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/knowledge_page.py" line="110"/>
        <source>Assistants may search this library</source>
        <translation>允许助手搜索此知识库</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/knowledge_page.py" line="115"/>
        <source>Add folder…</source>
        <translation>添加文件夹…</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/knowledge_page.py" line="117"/>
        <source>Add files…</source>
        <translation>添加文件…</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/knowledge_page.py" line="119"/>
        <source>Remove</source>
        <translation>移除</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/knowledge_page.py" line="83"/>
        <source>No libraries yet.</source>
        <translation>暂无知识库。</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/knowledge_page.py" line="87"/>
        <source>A library is folders and files your assistants may search and cite. Add one, then choose in Settings → Assistants which assistants use it.</source>
        <translation>知识库由文件夹和文件组成，助手可以搜索并引用其中的内容。添加一个知识库后，在“设置 → 助手”中选择使用它的助手。</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/knowledge_page.py" line="172"/>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/knowledge_page.py" line="174"/>
        <source>Folders and files</source>
        <translation>文件夹和文件</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/knowledge_page.py" line="178"/>
        <source>Include</source>
        <translation>包含</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/knowledge_page.py" line="179"/>
        <source>Exclude</source>
        <translation>排除</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/knowledge_page.py" line="184"/>
        <source>One pattern a line, matched against the path inside the library, e.g. *.md or docs/**. No include patterns: every file Parley can read.</source>
        <translation>每行一个模式，与文件在知识库内的路径匹配，例如 *.md 或 docs/**。未设置包含模式时，使用 Parley 能读取的所有文件。</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/knowledge_page.py" line="190"/>
        <source>Files to use</source>
        <translation>要使用的文件</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/knowledge_page.py" line="191"/>
        <source>Embedding model</source>
        <translation>嵌入模型</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/knowledge_page.py" line="192"/>
        <source>Indexing</source>
        <translation>索引</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/knowledge_page.py" line="223"/>
        <source>Saved.</source>
        <translation>已保存。</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/knowledge_page.py" line="365"/>
        <source>Choose or type the embedding model&apos;s name.</source>
        <translation>请选择或输入嵌入模型的名称。</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/knowledge_page.py" line="397"/>
        <source>Add a folder</source>
        <translation>添加文件夹</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/knowledge_page.py" line="404"/>
        <source>Add files</source>
        <translation>添加文件</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/knowledge_page.py" line="434"/>
        <source>Delete library</source>
        <translation>删除知识库</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/knowledge_page.py" line="436"/>
        <source>Delete the library “%1”? Its index is removed; the folders and files themselves are not touched.</source>
        <translation>要删除知识库“%1”吗？其索引将被移除，文件夹和文件本身不受影响。</translation>
    </message>
</context>
<context>
    <name>KnowledgeSettingsModel</name>
    <message>
        <location filename="../../desktop/ui/viewmodels/knowledge_settings.py" line="143"/>
        <source>New library</source>
        <translation>新知识库</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/knowledge_settings.py" line="167"/>
        <source>None — search by words only</source>
        <translation>无 — 仅按关键词搜索</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/knowledge_settings.py" line="229"/>
        <source>Turned off</source>
        <translation>已关闭</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/knowledge_settings.py" line="231"/>
        <source>No folders or files yet</source>
        <translation>尚未添加文件夹或文件</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/knowledge_settings.py" line="234"/>
        <source>Not indexed yet</source>
        <translation>尚未索引</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/knowledge_settings.py" line="238"/>
        <source>Looking for new and changed files…</source>
        <translation>正在查找新增和修改的文件…</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/knowledge_settings.py" line="240"/>
        <source>Indexing %1 of %2</source>
        <translation>正在索引 %1/%2</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/knowledge_settings.py" line="246"/>
        <source>Re-embedding…</source>
        <translation>正在重新嵌入…</translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/ui/viewmodels/knowledge_settings.py" line="249"/>
        <source>Cancelled · %n file(s) indexed</source>
        <translation>
            <numerusform>已取消 · 已索引 %n 个文件</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/ui/viewmodels/knowledge_settings.py" line="251"/>
        <source>Stopped · %n file(s) indexed</source>
        <translation>
            <numerusform>已停止 · 已索引 %n 个文件</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/ui/viewmodels/knowledge_settings.py" line="253"/>
        <source>Indexed %n file(s)</source>
        <translation>
            <numerusform>已索引 %n 个文件</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/knowledge_settings.py" line="256"/>
        <location filename="../../desktop/ui/viewmodels/knowledge_settings.py" line="292"/>
        <source>%1 failed</source>
        <translation>失败 %1 个</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/knowledge_settings.py" line="286"/>
        <source>%1 indexed</source>
        <translation>已索引 %1 个</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/knowledge_settings.py" line="289"/>
        <source>%1 waiting</source>
        <translation>等待中 %1 个</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/knowledge_settings.py" line="295"/>
        <source>%1 skipped</source>
        <translation>已跳过 %1 个</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/knowledge_settings.py" line="330"/>
        <source>%1 %2.</source>
        <translation>%1：%2。</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/knowledge_settings.py" line="340"/>
        <source>Library %1 added</source>
        <translation>已添加知识库 %1</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/knowledge_settings.py" line="342"/>
        <source>Library %1 changed</source>
        <translation>已修改知识库 %1</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/knowledge_settings.py" line="367"/>
        <source>Library %1 deleted</source>
        <translation>已删除知识库 %1</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/knowledge_settings.py" line="260"/>
        <source>words only</source>
        <translation>仅关键词搜索</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/knowledge_settings.py" line="174"/>
        <source>%1 (not available)</source>
        <translation>%1（不可用）</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/knowledge_settings.py" line="203"/>
        <source>Asking %1 for its embedding models…</source>
        <translation>正在向 %1 查询其嵌入模型…</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/knowledge_settings.py" line="212"/>
        <source>Could not ask %1 for its models: %2. Type the model&apos;s name.</source>
        <translation>无法向 %1 查询模型：%2。请输入模型名称。</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/knowledge_settings.py" line="216"/>
        <source>%1 lists no embedding models. Type the model&apos;s name.</source>
        <translation>%1 未列出嵌入模型。请输入模型名称。</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/knowledge_settings.py" line="270"/>
        <source>Re-embedding — search by words keeps working meanwhile</source>
        <translation>正在重新嵌入 — 期间关键词搜索仍可使用</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/knowledge_settings.py" line="394"/>
        <source>Could not save settings: %1</source>
        <translation>无法保存设置：%1</translation>
    </message>
</context>
<context>
    <name>KnowledgeStatusModel</name>
    <message>
        <location filename="../../desktop/ui/viewmodels/knowledge_status.py" line="50"/>
        <source>Knowledge: %1</source>
        <translation>知识库：%1</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/knowledge_status.py" line="62"/>
        <source>re-embedding…</source>
        <translation>正在重新嵌入…</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/knowledge_status.py" line="62"/>
        <source>indexing…</source>
        <translation>正在索引…</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/knowledge_status.py" line="65"/>
        <source>re-embedding %1%</source>
        <translation>正在重新嵌入 %1%</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/knowledge_status.py" line="65"/>
        <source>indexing %1%</source>
        <translation>正在索引 %1%</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/knowledge_status.py" line="73"/>
        <source>Answers may cite these libraries:</source>
        <translation>回答可引用以下知识库：</translation>
    </message>
</context>
<context>
    <name>LibraryProgress</name>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/library_progress.py" line="40"/>
        <source>Files that could not be read</source>
        <translation>无法读取的文件</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/library_progress.py" line="44"/>
        <source>Files indexed only in part</source>
        <translation>仅部分索引的文件</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/library_progress.py" line="48"/>
        <source>Re-scan</source>
        <translation>重新扫描</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/library_progress.py" line="49"/>
        <source>Look for new, changed and removed files now</source>
        <translation>立即查找新增、修改和删除的文件</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/library_progress.py" line="51"/>
        <source>Cancel indexing</source>
        <translation>取消索引</translation>
    </message>
</context>
<context>
    <name>LongText</name>
    <message>
        <location filename="../../desktop/ui/viewmodels/long_text.py" line="31"/>
        <source>Showing the first %1 of %2 characters.</source>
        <translation>显示了前 %1 个字符（共 %2 个）。</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/long_text.py" line="76"/>
        <source>Too long to show whole: showing the first %1 and the last %2 of %3 characters. Copy all or save them to read every one.</source>
        <translation>内容过长，无法完整显示：显示了开头 %1 个和结尾 %2 个字符（共 %3 个）。全部复制或保存后即可阅读全文。</translation>
    </message>
</context>
<context>
    <name>MainMenus</name>
    <message>
        <location filename="../../desktop/ui/views/main_menus.py" line="86"/>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/main_menus.py" line="87"/>
        <source>&amp;Edit</source>
        <translation>编辑(&amp;E)</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/main_menus.py" line="88"/>
        <source>&amp;Chat</source>
        <translation>对话(&amp;C)</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/main_menus.py" line="89"/>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/main_menus.py" line="90"/>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/main_menus.py" line="115"/>
        <source>&amp;New Chat</source>
        <translation>新建对话(&amp;N)</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/main_menus.py" line="117"/>
        <source>&amp;Search Chats</source>
        <translation>搜索对话(&amp;S)</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/main_menus.py" line="119"/>
        <source>&amp;Export Chat</source>
        <translation>导出对话(&amp;E)</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/main_menus.py" line="120"/>
        <source>&amp;Import Chat…</source>
        <translation>导入对话(&amp;I)…</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/main_menus.py" line="122"/>
        <source>Import from &amp;Another App…</source>
        <translation>从其他应用导入(&amp;A)…</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/main_menus.py" line="124"/>
        <source>&amp;Back Up…</source>
        <translation>备份(&amp;B)…</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/main_menus.py" line="126"/>
        <source>&amp;Restore from Backup…</source>
        <translation>从备份恢复(&amp;R)…</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/main_menus.py" line="130"/>
        <source>&amp;Settings…</source>
        <translation>设置(&amp;S)…</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/main_menus.py" line="137"/>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/main_menus.py" line="152"/>
        <source>Insert &amp;Prompt…</source>
        <translation>插入提示词(&amp;P)…</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/main_menus.py" line="158"/>
        <source>&amp;Copy Last Answer</source>
        <translation>复制上一条回答(&amp;C)</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/main_menus.py" line="161"/>
        <source>&amp;Edit Last Message</source>
        <translation>编辑上一条消息(&amp;E)</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/main_menus.py" line="164"/>
        <source>Co&amp;mpress Conversation…</source>
        <translation>压缩对话(&amp;M)…</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/main_menus.py" line="169"/>
        <source>&amp;Floating Chat</source>
        <translation>悬浮窗(&amp;F)</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/main_menus.py" line="175"/>
        <source>Show &amp;Sidebar</source>
        <translation>显示侧边栏(&amp;S)</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/main_menus.py" line="181"/>
        <source>Zoom &amp;In</source>
        <translation>放大(&amp;I)</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/main_menus.py" line="184"/>
        <source>Zoom &amp;Out</source>
        <translation>缩小(&amp;O)</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/main_menus.py" line="186"/>
        <source>&amp;Actual Size</source>
        <translation>实际大小(&amp;A)</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/main_menus.py" line="191"/>
        <source>&amp;Full Screen</source>
        <translation>全屏(&amp;F)</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/main_menus.py" line="209"/>
        <source>&amp;Keyboard Shortcuts</source>
        <translation>键盘快捷键(&amp;K)</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/main_menus.py" line="211"/>
        <source>Open &amp;Log Folder</source>
        <translation>打开日志文件夹(&amp;L)</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/main_menus.py" line="212"/>
        <source>&amp;About Parley</source>
        <translation>关于 Parley(&amp;A)</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <location filename="../../desktop/ui/views/main_window.py" line="144"/>
        <source>Exported to %1</source>
        <translation>已导出到 %1</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/main_window.py" line="154"/>
        <source>Saved to %1</source>
        <translation>已保存到 %1</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/main_window.py" line="213"/>
        <source>Markdown — this branch…</source>
        <translation>Markdown — 当前分支…</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/main_window.py" line="214"/>
        <source>Markdown — all versions…</source>
        <translation>Markdown — 所有版本…</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/main_window.py" line="215"/>
        <source>Parley JSON — whole chat…</source>
        <translation>Parley JSON — 完整对话…</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/main_window.py" line="216"/>
        <source>Parley JSON — this branch…</source>
        <translation>Parley JSON — 当前分支…</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/main_window.py" line="242"/>
        <source>Export Chat</source>
        <translation>导出对话</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/main_window.py" line="245"/>
        <source>Markdown (*.md)</source>
        <translation>Markdown (*.md)</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/main_window.py" line="245"/>
        <location filename="../../desktop/ui/views/main_window.py" line="259"/>
        <source>Parley JSON (*.json)</source>
        <translation>Parley JSON (*.json)</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/main_window.py" line="257"/>
        <source>Import Chat</source>
        <translation>导入对话</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/main_window.py" line="273"/>
        <source>Import from Another App</source>
        <translation>从其他应用导入</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/main_window.py" line="276"/>
        <source>Exports (*.zip *.json)</source>
        <translation>导出文件 (*.zip *.json)</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/main_window.py" line="277"/>
        <location filename="../../desktop/ui/views/main_window.py" line="283"/>
        <source>All files (*)</source>
        <translation>所有文件 (*)</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/main_window.py" line="278"/>
        <location filename="../../desktop/ui/views/main_window.py" line="284"/>
        <source>Choose a Folder Instead</source>
        <translation>改为选择文件夹</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/main_window.py" line="287"/>
        <source>Choose a File Instead</source>
        <translation>改为选择文件</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/main_window.py" line="320"/>
        <source>Imported %1 messages.</source>
        <translation>已导入 %1 条消息。</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/main_window.py" line="322"/>
        <source>This chat was already here; nothing new to import.</source>
        <translation>此对话已存在，没有可导入的新内容。</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/main_window.py" line="448"/>
        <source>About Parley</source>
        <translation>关于 Parley</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/main_window.py" line="452"/>
        <source>&lt;h3&gt;Parley %1&lt;/h3&gt;&lt;p&gt;A native desktop chat client for large language models.&lt;/p&gt;&lt;p&gt;Logs: %2&lt;/p&gt;</source>
        <translation>&lt;h3&gt;Parley %1&lt;/h3&gt;&lt;p&gt;面向大语言模型的原生桌面聊天客户端。&lt;/p&gt;&lt;p&gt;日志：%2&lt;/p&gt;</translation>
    </message>
</context>
<context>
    <name>McpConsentDialog</name>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/mcp_consent.py" line="30"/>
        <source>Allow {name} to run?</source>
        <translation>允许运行 {name} 吗？</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/mcp_consent.py" line="33"/>
        <source>This MCP server is a program that will run on your computer with your permissions. Start it only if you trust it.</source>
        <translation>此 MCP 服务器是一个将以你的权限在你的电脑上运行的程序。请仅在信任它时启动。</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/mcp_consent.py" line="42"/>
        <source>(Parley&apos;s working folder)</source>
        <translation>（Parley 的工作文件夹）</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/mcp_consent.py" line="43"/>
        <source>(none)</source>
        <translation>（无）</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/mcp_consent.py" line="45"/>
        <source>Command line</source>
        <translation>命令行</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/mcp_consent.py" line="46"/>
        <source>Working folder</source>
        <translation>工作文件夹</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/mcp_consent.py" line="47"/>
        <source>Environment variables</source>
        <translation>环境变量</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/mcp_consent.py" line="51"/>
        <source>Allow and start</source>
        <translation>允许并启动</translation>
    </message>
</context>
<context>
    <name>McpImportDialog</name>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/mcp_import_dialog.py" line="121"/>
        <source>Add MCP servers from JSON</source>
        <translation>从 JSON 添加 MCP 服务器</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/mcp_import_dialog.py" line="125"/>
        <source>Paste the “mcpServers” JSON of Claude Desktop or Cursor, VS Code&apos;s “servers”, or one server from its README.</source>
        <translation>粘贴 Claude Desktop 或 Cursor 的“mcpServers” JSON、VS Code 的“servers”，或某个服务器 README 中的配置。</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/mcp_import_dialog.py" line="132"/>
        <source>MCP servers&apos; JSON</source>
        <translation>MCP 服务器的 JSON</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/mcp_import_dialog.py" line="158"/>
        <source>Servers are added turned off. Turn one on to use it: a program asks you first to allow its exact command line.</source>
        <translation>添加的服务器默认处于关闭状态，开启后即可使用：程序类服务器会先请你允许其完整的命令行。</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/mcp_import_dialog.py" line="215"/>
        <source>Not added</source>
        <translation>未添加</translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/ui/views/settings_pages/mcp_import_dialog.py" line="229"/>
        <source>Add %n server(s)</source>
        <translation>
            <numerusform>添加 %n 个服务器</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/mcp_import_dialog.py" line="229"/>
        <source>Add</source>
        <translation>添加</translation>
    </message>
</context>
<context>
    <name>McpImportPreview</name>
    <message>
        <location filename="../../desktop/ui/viewmodels/mcp_import_preview.py" line="33"/>
        <source>Program (stdio)</source>
        <translation>程序（stdio）</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/mcp_import_preview.py" line="34"/>
        <source>URL (HTTP or SSE)</source>
        <translation>URL（HTTP 或 SSE）</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/mcp_import_preview.py" line="54"/>
        <source>Working folder: %1</source>
        <translation>工作文件夹：%1</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/mcp_import_preview.py" line="60"/>
        <source>Environment: %1</source>
        <translation>环境变量：%1</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/mcp_import_preview.py" line="66"/>
        <source>Headers: %1</source>
        <translation>请求头：%1</translation>
    </message>
</context>
<context>
    <name>McpServerForm</name>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/mcp_server_form.py" line="47"/>
        <source>e.g. Time</source>
        <translation>例如：时间</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/mcp_server_form.py" line="57"/>
        <source>Parley&apos;s own working folder</source>
        <translation>Parley 自己的工作文件夹</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/mcp_server_form.py" line="58"/>
        <source>Choose…</source>
        <translation>选择…</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/mcp_server_form.py" line="61"/>
        <source>Add variable</source>
        <translation>添加变量</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/mcp_server_form.py" line="62"/>
        <source>Remove variable</source>
        <translation>移除变量</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/mcp_server_form.py" line="75"/>
        <source>Separated by spaces; put quotes around one that has spaces.</source>
        <translation>用空格分隔；含空格的参数请加引号。</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/mcp_server_form.py" line="78"/>
        <source>Streamable HTTP; a server that only speaks the older SSE works too.</source>
        <translation>Streamable HTTP；仅支持旧版 SSE 的服务器也可使用。</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/mcp_server_form.py" line="83"/>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/mcp_server_form.py" line="84"/>
        <source>Kind</source>
        <translation>类型</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/mcp_server_form.py" line="94"/>
        <source>Command</source>
        <translation>命令</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/mcp_server_form.py" line="95"/>
        <source>Arguments</source>
        <translation>参数</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/mcp_server_form.py" line="96"/>
        <location filename="../../desktop/ui/views/settings_pages/mcp_server_form.py" line="184"/>
        <source>Working folder</source>
        <translation>工作文件夹</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/mcp_server_form.py" line="97"/>
        <source>Environment</source>
        <translation>环境变量</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/mcp_server_form.py" line="98"/>
        <source>URL</source>
        <translation>URL</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/mcp_server_form.py" line="99"/>
        <source>Headers</source>
        <translation>请求头</translation>
    </message>
</context>
<context>
    <name>McpServersModel</name>
    <message>
        <location filename="../../desktop/ui/viewmodels/mcp_servers.py" line="94"/>
        <source>Turned off</source>
        <translation>已关闭</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/mcp_servers.py" line="96"/>
        <source>Not allowed to run: left out of conversations</source>
        <translation>未获准运行：不会用于对话</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/mcp_servers.py" line="98"/>
        <source>Waiting for your consent</source>
        <translation>等待你的同意</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/mcp_servers.py" line="101"/>
        <source>Starts when a conversation uses tools</source>
        <translation>对话使用工具时启动</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/mcp_servers.py" line="103"/>
        <source>Running</source>
        <translation>运行中</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/mcp_servers.py" line="107"/>
        <source>Stopped unexpectedly too often: not restarted (see its log)</source>
        <translation>意外停止次数过多：不再重启（请查看其日志）</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/mcp_servers.py" line="109"/>
        <source>Stopped unexpectedly — restarting in {seconds:g} s when next used</source>
        <translation>意外停止 — 下次使用时将在 {seconds:g} 秒后重启</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/mcp_servers.py" line="111"/>
        <source>Stopped</source>
        <translation>已停止</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/mcp_servers.py" line="122"/>
        <source>MCP server %1 added</source>
        <translation>已添加 MCP 服务器 %1</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/mcp_servers.py" line="146"/>
        <source>MCP server %1 changed</source>
        <translation>已修改 MCP 服务器 %1</translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/ui/viewmodels/mcp_servers.py" line="166"/>
        <source>%n MCP server(s) added</source>
        <translation>
            <numerusform>已添加 %n 个 MCP 服务器</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/mcp_servers.py" line="180"/>
        <source>MCP server %1 turned on</source>
        <translation>已开启 MCP 服务器 %1</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/mcp_servers.py" line="180"/>
        <source>MCP server %1 turned off</source>
        <translation>已关闭 MCP 服务器 %1</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/mcp_servers.py" line="196"/>
        <source>MCP server %1 removed</source>
        <translation>已移除 MCP 服务器 %1</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/mcp_servers.py" line="245"/>
        <source>The settings file could not be written.</source>
        <translation>无法写入设置文件。</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/mcp_server_draft.py" line="64"/>
        <source>Give the server a name.</source>
        <translation>请为服务器命名。</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/mcp_server_draft.py" line="76"/>
        <source>Enter the program to run, such as uvx or npx.</source>
        <translation>请输入要运行的程序，例如 uvx 或 npx。</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/mcp_server_draft.py" line="85"/>
        <source>The arguments cannot be read: %1.</source>
        <translation>无法解析参数：%1。</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/mcp_server_draft.py" line="97"/>
        <source>Enter the server&apos;s address, such as https://…/mcp.</source>
        <translation>请输入服务器地址，例如 https://…/mcp。</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/mcp_server_draft.py" line="114"/>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/mcp_server_draft.py" line="134"/>
        <source>The value %1 needs a name.</source>
        <translation>值 %1 缺少名称。</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/mcp_server_draft.py" line="139"/>
        <source>The name %1 is given twice.</source>
        <translation>名称 %1 重复了。</translation>
    </message>
</context>
<context>
    <name>McpServersPage</name>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/mcp_page.py" line="59"/>
        <source>Add</source>
        <translation>添加</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/mcp_page.py" line="75"/>
        <source>Allow…</source>
        <translation>允许…</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/mcp_page.py" line="48"/>
        <source>MCP servers</source>
        <translation>MCP 服务器</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/mcp_page.py" line="51"/>
        <source>No MCP servers yet. Add one, or paste the “mcpServers” JSON of Claude Desktop or Cursor here (Ctrl+V).</source>
        <translation>暂无 MCP 服务器。可以添加一个，或将 Claude Desktop 或 Cursor 的“mcpServers” JSON 粘贴到这里（Ctrl+V）。</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/mcp_page.py" line="61"/>
        <source>Paste JSON…</source>
        <translation>粘贴 JSON…</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/mcp_page.py" line="63"/>
        <source>Add servers from the JSON of Claude Desktop, Cursor or VS Code</source>
        <translation>从 Claude Desktop、Cursor 或 VS Code 的 JSON 添加服务器</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/mcp_page.py" line="78"/>
        <source>Open log</source>
        <translation>打开日志</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/mcp_page.py" line="80"/>
        <source>Remove</source>
        <translation>移除</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/mcp_page.py" line="83"/>
        <source>Use this server in conversations</source>
        <translation>在对话中使用此服务器</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/mcp_page.py" line="88"/>
        <source>A program runs only once you allow its exact command line.</source>
        <translation>程序只有在你允许其完整命令行后才会运行。</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/mcp_page.py" line="91"/>
        <source>Add server</source>
        <translation>添加服务器</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/mcp_page.py" line="182"/>
        <source>New server</source>
        <translation>新服务器</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/mcp_page.py" line="206"/>
        <source>%1 (off)</source>
        <translation>%1（已关闭）</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/mcp_page.py" line="243"/>
        <source>The clipboard holds no MCP servers&apos; JSON.</source>
        <translation>剪贴板中没有 MCP 服务器的 JSON。</translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/ui/views/settings_pages/mcp_page.py" line="266"/>
        <source>%n server(s) added, turned off: turn one on to use it.</source>
        <translation>
            <numerusform>已添加 %n 个服务器，均处于关闭状态：开启后即可使用。</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>MemoryCard</name>
    <message>
        <location filename="../../desktop/ui/viewmodels/memory_cards.py" line="66"/>
        <location filename="../../desktop/ui/viewmodels/memory_cards.py" line="86"/>
        <source>This memory is no longer kept.</source>
        <translation>此记忆已不再保留。</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/memory_cards.py" line="72"/>
        <source>Removed from memory.</source>
        <translation>已从记忆中移除。</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/memory_cards.py" line="77"/>
        <location filename="../../desktop/ui/viewmodels/memory_cards.py" line="98"/>
        <source>Could not change the memory: %1</source>
        <translation>无法更改记忆：%1</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/memory_cards.py" line="94"/>
        <source>Changed to: %1</source>
        <translation>已改为：%1</translation>
    </message>
</context>
<context>
    <name>MemoryPage</name>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/memory_page.py" line="64"/>
        <source>What assistants were asked to remember. Global memories are for every assistant that uses memory; the others for one assistant only.</source>
        <translation>助手被要求记住的内容。全局记忆适用于所有启用了记忆的助手，其他记忆仅适用于某一个助手。</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/memory_page.py" line="72"/>
        <source>Search memories</source>
        <translation>搜索记忆</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/memory_page.py" line="85"/>
        <source>Add</source>
        <translation>添加</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/memory_page.py" line="87"/>
        <source>Edit</source>
        <translation>编辑</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/memory_page.py" line="89"/>
        <source>Delete</source>
        <translation>删除</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/memory_page.py" line="91"/>
        <source>Export…</source>
        <translation>导出…</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/memory_page.py" line="92"/>
        <source>Save the memories listed as a Markdown file</source>
        <translation>将列表中的记忆保存为 Markdown 文件</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/memory_page.py" line="98"/>
        <source>Memory deleted.</source>
        <translation>记忆已删除。</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/memory_page.py" line="99"/>
        <source>Undo</source>
        <translation>撤销</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/memory_page.py" line="111"/>
        <source>Keep for</source>
        <translation>适用于</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/memory_page.py" line="114"/>
        <source>e.g. I prefer metric units.</source>
        <translation>例如：我习惯使用公制单位。</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/memory_page.py" line="118"/>
        <source>Save</source>
        <translation>保存</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/memory_page.py" line="121"/>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/memory_page.py" line="147"/>
        <source>Without a model memories are found by their words. A memory saved while the model cannot be reached is marked “words only” until it is embedded.</source>
        <translation>未设置模型时，将按关键词查找记忆。在无法连接模型时保存的记忆会标记为“仅关键词”，直到完成嵌入。</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/memory_page.py" line="162"/>
        <source>Embedding model</source>
        <translation>嵌入模型</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/memory_page.py" line="216"/>
        <source>No memories match.</source>
        <translation>没有匹配的记忆。</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/memory_page.py" line="220"/>
        <source>No memories yet.

Add one here, or ask an assistant that uses memory to remember something.</source>
        <translation>暂无记忆。

可以在这里添加，也可以让启用了记忆的助手记住某些内容。</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/memory_page.py" line="229"/>
        <source>words only</source>
        <translation>仅关键词</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/memory_page.py" line="254"/>
        <source>New memory</source>
        <translation>新建记忆</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/memory_page.py" line="263"/>
        <source>Edit memory</source>
        <translation>编辑记忆</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/memory_page.py" line="309"/>
        <source>Export Memories</source>
        <translation>导出记忆</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/memory_page.py" line="311"/>
        <source>Markdown (*.md)</source>
        <translation>Markdown (*.md)</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/memory_page.py" line="324"/>
        <source>Choose or type the embedding model&apos;s name.</source>
        <translation>请选择或输入嵌入模型的名称。</translation>
    </message>
</context>
<context>
    <name>MemorySaveRow</name>
    <message>
        <location filename="../../desktop/ui/views/memory_row.py" line="28"/>
        <source>Edit</source>
        <translation>编辑</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/memory_row.py" line="29"/>
        <source>Undo</source>
        <translation>撤销</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/memory_row.py" line="36"/>
        <source>Save</source>
        <translation>保存</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/memory_row.py" line="37"/>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/memory_row.py" line="74"/>
        <source>Saved to memory: %1</source>
        <translation>已保存到记忆：%1</translation>
    </message>
</context>
<context>
    <name>MemorySettingsModel</name>
    <message>
        <location filename="../../desktop/ui/viewmodels/memory_settings.py" line="146"/>
        <source>All memories</source>
        <translation>全部记忆</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/memory_settings.py" line="157"/>
        <source>Global</source>
        <translation>全局</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/memory_settings.py" line="160"/>
        <source>%1 (removed assistant)</source>
        <translation>%1（已删除的助手）</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/memory_settings.py" line="190"/>
        <source>Could not read the memories: %1</source>
        <translation>无法读取记忆：%1</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/memory_settings.py" line="211"/>
        <location filename="../../desktop/ui/viewmodels/memory_settings.py" line="229"/>
        <source>Could not save the memory: %1</source>
        <translation>无法保存记忆：%1</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/memory_settings.py" line="214"/>
        <source>That is already kept as a memory.</source>
        <translation>已有相同的记忆。</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/memory_settings.py" line="218"/>
        <location filename="../../desktop/ui/viewmodels/memory_settings.py" line="235"/>
        <location filename="../../desktop/ui/viewmodels/memory_settings.py" line="328"/>
        <source>Saved.</source>
        <translation>已保存。</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/memory_settings.py" line="241"/>
        <source>Saved. It is found by its words only until it can be embedded.</source>
        <translation>已保存。完成嵌入之前，只能按关键词找到它。</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/memory_settings.py" line="242"/>
        <source>Saved. It is found by its words only until it can be embedded: %1.</source>
        <translation>已保存。完成嵌入之前，只能按关键词找到它：%1。</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/memory_settings.py" line="253"/>
        <source>Could not delete the memory: %1</source>
        <translation>无法删除记忆：%1</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/memory_settings.py" line="275"/>
        <source>Could not bring the memory back: %1</source>
        <translation>无法恢复记忆：%1</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/memory_settings.py" line="278"/>
        <source>The memory could not be brought back.</source>
        <translation>无法恢复该记忆。</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/memory_settings.py" line="280"/>
        <source>Memory restored.</source>
        <translation>记忆已恢复。</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/memory_settings.py" line="301"/>
        <source>Could not export to %1: %2</source>
        <translation>无法导出到 %1：%2</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/memory_settings.py" line="304"/>
        <source>Memories exported to %1: %2.</source>
        <translation>已将 %2 条记忆导出到 %1。</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/memory_settings.py" line="320"/>
        <source>Memories&apos; embedding model changed</source>
        <translation>已更改记忆的嵌入模型</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/memory_settings.py" line="326"/>
        <source>Could not save settings: %1</source>
        <translation>无法保存设置：%1</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/memory_settings.py" line="340"/>
        <source>Could not embed the memories: %1</source>
        <translation>无法嵌入记忆：%1</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/memory_settings.py" line="342"/>
        <source>Memories embedded with the new model: %1.</source>
        <translation>已用新模型嵌入 %1 条记忆。</translation>
    </message>
</context>
<context>
    <name>MessageActions</name>
    <message>
        <location filename="../../desktop/ui/views/message_actions.py" line="46"/>
        <source>Copy as Markdown</source>
        <translation>复制为 Markdown</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/message_actions.py" line="47"/>
        <source>Edit and answer again</source>
        <translation>编辑并重新回答</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/message_actions.py" line="49"/>
        <source>Regenerate this answer</source>
        <translation>重新生成此回答</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/message_actions.py" line="51"/>
        <source>Previous version</source>
        <translation>上一个版本</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/message_actions.py" line="55"/>
        <source>Next version</source>
        <translation>下一个版本</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/message_actions.py" line="60"/>
        <source>Continue</source>
        <translation>继续</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/message_actions.py" line="58"/>
        <source>Continue this answer</source>
        <translation>继续生成此回答</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/message_actions.py" line="62"/>
        <source>Try this answer again</source>
        <translation>重新尝试此回答</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/message_actions.py" line="64"/>
        <source>Retry</source>
        <translation>重试</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/message_actions.py" line="69"/>
        <source>Delete this message and what follows it</source>
        <translation>删除此消息及其后的内容</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/message_actions.py" line="118"/>
        <source>Version %1 of %2</source>
        <translation>版本 %1/%2</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/message_actions.py" line="127"/>
        <source>Unpin: the summary may stand for this message again</source>
        <translation>取消固定：摘要可再次代替此消息</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/message_actions.py" line="129"/>
        <source>Pin: always send this message in full</source>
        <translation>固定：始终完整发送此消息</translation>
    </message>
</context>
<context>
    <name>MessageEditor</name>
    <message>
        <location filename="../../desktop/ui/views/message_editor.py" line="45"/>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/message_editor.py" line="46"/>
        <source>Keep the message as it was (Esc)</source>
        <translation>保持消息原样（Esc）</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/message_editor.py" line="48"/>
        <source>Save &amp;&amp; regenerate</source>
        <translation>保存并重新生成</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/message_editor.py" line="50"/>
        <source>Send the edited message as a new version (Enter)</source>
        <translation>将编辑后的消息作为新版本发送（Enter）</translation>
    </message>
</context>
<context>
    <name>MessageItem</name>
    <message>
        <location filename="../../desktop/ui/viewmodels/message_item.py" line="124"/>
        <source>Thinking…</source>
        <translation>思考中…</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/message_item.py" line="126"/>
        <source>Thought for %n s</source>
        <translation>已思考 %n 秒</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/message_item.py" line="135"/>
        <source>%1 — retrying in %2 s (try %3 of %4)</source>
        <translation>%1 — %2 秒后重试（第 %3/%4 次）</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/message_item.py" line="139"/>
        <source>%1 — trying again (try %3 of %4)</source>
        <translation>%1 — 正在重试（第 %3/%4 次）</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/message_item.py" line="157"/>
        <source>Stopped</source>
        <translation>已停止</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/message_item.py" line="158"/>
        <source>Interrupted — Parley closed before the answer finished</source>
        <translation>已中断 — 回答完成前 Parley 已关闭</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/message_item.py" line="161"/>
        <source>Waiting for your approval</source>
        <translation>等待你的批准</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/message_item.py" line="181"/>
        <source>first token %n ms</source>
        <translation>首 Token %n 毫秒</translation>
    </message>
</context>
<context>
    <name>MessageWidget</name>
    <message>
        <location filename="../../desktop/ui/views/message_widget.py" line="169"/>
        <source>Pinned — always sent in full</source>
        <translation>已固定 — 始终完整发送</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/message_widget.py" line="210"/>
        <source>Show text</source>
        <translation>显示文本</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/message_widget.py" line="270"/>
        <source>message.txt</source>
        <translation>message.txt</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/message_widget.py" line="270"/>
        <source>answer.md</source>
        <translation>answer.md</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/message_widget.py" line="271"/>
        <source>Save Message</source>
        <translation>保存消息</translation>
    </message>
</context>
<context>
    <name>ModelPickerModel</name>
    <message>
        <location filename="../../desktop/ui/viewmodels/model_picker.py" line="92"/>
        <source>Could not save settings: %1</source>
        <translation>无法保存设置：%1</translation>
    </message>
</context>
<context>
    <name>NetworkPage</name>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/network_page.py" line="37"/>
        <source>Use the system&apos;s proxy settings</source>
        <translation>使用系统代理设置</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/network_page.py" line="38"/>
        <source>No proxy</source>
        <translation>不使用代理</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/network_page.py" line="39"/>
        <source>Custom proxy:</source>
        <translation>自定义代理：</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/network_page.py" line="56"/>
        <source>None: only the system&apos;s certificates</source>
        <translation>无：仅使用系统证书</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/network_page.py" line="57"/>
        <source>Browse…</source>
        <translation>浏览…</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/network_page.py" line="59"/>
        <source>Clear</source>
        <translation>清除</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/network_page.py" line="63"/>
        <source>Certificates (PEM) trusted in addition to the system&apos;s, e.g. for a company proxy that inspects encrypted connections.</source>
        <translation>除系统证书外额外信任的证书（PEM），例如用于会检查加密连接的公司代理。</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/network_page.py" line="137"/>
        <source>Type the proxy&apos;s address and press Enter to use it.</source>
        <translation>输入代理地址并按 Enter 即可使用。</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/network_page.py" line="91"/>
        <source>Proxy</source>
        <translation>代理</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/network_page.py" line="92"/>
        <source>CA bundle</source>
        <translation>CA 证书包</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/network_page.py" line="162"/>
        <source>Choose a CA bundle</source>
        <translation>选择 CA 证书包</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/network_page.py" line="165"/>
        <source>Certificates (*.pem *.crt *.cer)</source>
        <translation>证书 (*.pem *.crt *.cer)</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/network_page.py" line="165"/>
        <source>All files (*)</source>
        <translation>所有文件 (*)</translation>
    </message>
</context>
<context>
    <name>NetworkSettingsModel</name>
    <message>
        <location filename="../../desktop/ui/viewmodels/network_settings.py" line="67"/>
        <source>%1: %2.</source>
        <translation>%1：%2。</translation>
    </message>
</context>
<context>
    <name>OcrPage</name>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/ocr_page.py" line="20"/>
        <source>When you send images to a model that cannot see them, Parley first reads the text in them and sends that instead. Choose a model with vision to do the reading, or leave it to the local engine, which works offline and keeps the images on this computer.</source>
        <translation>向无法识别图片的模型发送图片时，Parley 会先识别图片中的文字，再发送这些文字。你可以选择一个支持视觉的模型来识别，也可以交给本地引擎：它可离线工作，图片不会离开这台电脑。</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/ocr_page.py" line="33"/>
        <source>Only models that can see images are listed.</source>
        <translation>仅列出能识别图片的模型。</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/ocr_page.py" line="47"/>
        <source>OCR model</source>
        <translation>OCR 模型</translation>
    </message>
</context>
<context>
    <name>OcrSettingsModel</name>
    <message>
        <location filename="../../desktop/ui/viewmodels/ocr_settings.py" line="51"/>
        <source>None — use the local engine</source>
        <translation>无 — 使用本地引擎</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/ocr_settings.py" line="60"/>
        <source>cannot see images</source>
        <translation>无法识别图片</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/ocr_settings.py" line="74"/>
        <source>Local OCR engine: installed</source>
        <translation>本地 OCR 引擎：已安装</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/ocr_settings.py" line="75"/>
        <source>Local OCR engine: not installed — %1</source>
        <translation>本地 OCR 引擎：未安装 — %1</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/ocr_settings.py" line="81"/>
        <source>Images are read by %1.</source>
        <translation>图片由 %1 识别。</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/ocr_settings.py" line="83"/>
        <source>Images are read by the local engine, on this computer.</source>
        <translation>图片由本机上的本地引擎识别。</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/ocr_settings.py" line="85"/>
        <source>No OCR is available: images cannot be sent to models without vision until you choose an OCR model or install the local engine.</source>
        <translation>没有可用的 OCR：在你选择 OCR 模型或安装本地引擎之前，无法向不支持视觉的模型发送图片。</translation>
    </message>
</context>
<context>
    <name>Onboarding</name>
    <message>
        <location filename="../../desktop/ui/views/onboarding.py" line="29"/>
        <source>Welcome to Parley</source>
        <translation>欢迎使用 Parley</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/onboarding.py" line="34"/>
        <source>Connect a model provider to start chatting: a local server such as Ollama, LM Studio or llama.cpp, or a service such as OpenAI, Anthropic, Google Gemini, DeepSeek or OpenRouter with an API key. Keys are kept in your system keyring.</source>
        <translation>连接一个模型服务商即可开始对话：可以是 Ollama、LM Studio 或 llama.cpp 等本地服务器，也可以是使用 API 密钥的 OpenAI、Anthropic、Google Gemini、DeepSeek 或 OpenRouter 等服务。密钥保存在系统密钥环中。</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/onboarding.py" line="44"/>
        <source>Set up a provider…</source>
        <translation>设置服务商…</translation>
    </message>
</context>
<context>
    <name>OverridesEditor</name>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/overrides_editor.py" line="48"/>
        <source>Images (vision)</source>
        <translation>图片（视觉）</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/overrides_editor.py" line="49"/>
        <source>Tool calls</source>
        <translation>工具调用</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/overrides_editor.py" line="50"/>
        <source>Reasoning</source>
        <translation>思考</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/overrides_editor.py" line="51"/>
        <source>System prompt role</source>
        <translation>系统提示词角色</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/overrides_editor.py" line="57"/>
        <source>On</source>
        <translation>开启</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/overrides_editor.py" line="57"/>
        <source>Off</source>
        <translation>关闭</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/overrides_editor.py" line="65"/>
        <source> tokens</source>
        <translation> Token</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/overrides_editor.py" line="68"/>
        <source>Add models above to adjust what they can do.</source>
        <translation>先在上方添加模型，再调整它们的能力。</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/overrides_editor.py" line="77"/>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/overrides_editor.py" line="80"/>
        <source>Context length</source>
        <translation>上下文长度</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/overrides_editor.py" line="142"/>
        <source>Default (on)</source>
        <translation>默认（开启）</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/overrides_editor.py" line="142"/>
        <source>Default (off)</source>
        <translation>默认（关闭）</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/overrides_editor.py" line="146"/>
        <source>Default (%1)</source>
        <translation>默认（%1）</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/overrides_editor.py" line="148"/>
        <source>Default</source>
        <translation>默认</translation>
    </message>
</context>
<context>
    <name>Parley</name>
    <message>
        <location filename="../../desktop/app.py" line="102"/>
        <source>Something unexpected went wrong: %1. Details were written to the log.</source>
        <translation>发生意外错误：%1。详细信息已写入日志。</translation>
    </message>
    <message>
        <location filename="../../desktop/app.py" line="591"/>
        <source>Parley could not start.

%1</source>
        <translation>Parley 无法启动。

%1</translation>
    </message>
</context>
<context>
    <name>PresetPicker</name>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/preset_picker.py" line="29"/>
        <source>Add a provider</source>
        <translation>添加服务商</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/preset_picker.py" line="32"/>
        <source>Choose a service to fill in its address; every field can be changed.</source>
        <translation>选择一个服务以填入其地址；所有字段均可修改。</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/preset_picker.py" line="51"/>
        <source>Any other server that speaks OpenAI&apos;s API (vLLM, llama.cpp, …)</source>
        <translation>任何兼容 OpenAI API 的其他服务器（vLLM、llama.cpp 等）</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/preset_picker.py" line="56"/>
        <source>On this computer</source>
        <translation>本机</translation>
    </message>
</context>
<context>
    <name>PromptEditor</name>
    <message>
        <location filename="../../desktop/ui/views/assistant_picker.py" line="28"/>
        <source>Conversation prompt</source>
        <translation>对话提示词</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/assistant_picker.py" line="41"/>
        <source>Use the assistant&apos;s prompt</source>
        <translation>使用助手的提示词</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/assistant_picker.py" line="56"/>
        <source>Replaces the system prompt of %1 in this conversation only. Leave it empty to use the assistant&apos;s prompt.</source>
        <translation>仅在此对话中替换 %1 的系统提示词。留空则使用助手的提示词。</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/assistant_picker.py" line="60"/>
        <source>(no system prompt)</source>
        <translation>（无系统提示词）</translation>
    </message>
</context>
<context>
    <name>PromptInserter</name>
    <message>
        <location filename="../../desktop/ui/views/prompt_insert.py" line="191"/>
        <source>No saved prompts — add them in Settings → Prompts</source>
        <translation>没有已保存的提示词 — 请在“设置 → 提示词”中添加</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/prompt_insert.py" line="193"/>
        <source>No prompt matches “%1”</source>
        <translation>没有与“%1”匹配的提示词</translation>
    </message>
</context>
<context>
    <name>PromptLibraryModel</name>
    <message>
        <location filename="../../desktop/ui/viewmodels/prompt_library.py" line="71"/>
        <source>Asked when inserted: %1</source>
        <translation>插入时询问：%1</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/prompt_library.py" line="73"/>
        <source>Filled in when sent: %1</source>
        <translation>发送时自动填入：%1</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/prompt_library.py" line="75"/>
        <source>No variables. Write {{name}} where the prompt should ask for a word.</source>
        <translation>没有变量。在需要插入时填写的位置写上 {{name}}。</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/prompt_library.py" line="82"/>
        <source>New prompt</source>
        <translation>新提示词</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/prompt_library.py" line="84"/>
        <source>Prompt added</source>
        <translation>已添加提示词</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/prompt_library.py" line="92"/>
        <source>Summarise</source>
        <translation>总结</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/prompt_library.py" line="94"/>
        <source>Summarise the following in a few bullet points. Keep names, numbers and decisions.

</source>
        <translation>用几个要点总结以下内容，保留名称、数字和决定。

</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/prompt_library.py" line="100"/>
        <source>Translate</source>
        <translation>翻译</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/prompt_library.py" line="102"/>
        <source>Translate the following into {{language}}. Keep the meaning, tone and formatting, and reply with the translation only.

</source>
        <translation>将以下内容翻译成{{language}}。保留原意、语气和格式，只回复译文。

</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/prompt_library.py" line="108"/>
        <source>Explain code</source>
        <translation>解释代码</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/prompt_library.py" line="110"/>
        <source>Explain what this code does, step by step, and point out anything that could go wrong.

</source>
        <translation>逐步解释这段代码的作用，并指出可能出错的地方。

</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/prompt_library.py" line="115"/>
        <source>Example prompts added</source>
        <translation>已添加示例提示词</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/prompt_library.py" line="123"/>
        <source>%1 (copy)</source>
        <translation>%1（副本）</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/prompt_library.py" line="126"/>
        <source>Prompt “%1” duplicated</source>
        <translation>已创建提示词“%1”的副本</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/prompt_library.py" line="133"/>
        <source>A prompt needs a title.</source>
        <translation>提示词需要标题。</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/prompt_library.py" line="135"/>
        <source>A title can be at most %1 characters.</source>
        <translation>标题最多 %1 个字符。</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/prompt_library.py" line="147"/>
        <source>Prompt “%1” deleted</source>
        <translation>已删除提示词“%1”</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/prompt_library.py" line="163"/>
        <source>Prompt “%1” edited</source>
        <translation>已编辑提示词“%1”</translation>
    </message>
</context>
<context>
    <name>PromptPopup</name>
    <message>
        <location filename="../../desktop/ui/views/prompt_popup.py" line="138"/>
        <location filename="../../desktop/ui/views/prompt_popup.py" line="147"/>
        <source>Saved prompts</source>
        <translation>已保存的提示词</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/prompt_popup.py" line="140"/>
        <location filename="../../desktop/ui/views/prompt_popup.py" line="141"/>
        <source>Find a prompt</source>
        <translation>查找提示词</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/prompt_popup.py" line="158"/>
        <source>Open Settings</source>
        <translation>打开设置</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/prompt_popup.py" line="161"/>
        <source>↑↓ to move · Enter to insert · Esc to close</source>
        <translation>↑↓ 移动 · Enter 插入 · Esc 关闭</translation>
    </message>
</context>
<context>
    <name>PromptVariablesDialog</name>
    <message>
        <location filename="../../desktop/ui/views/prompt_variables_dialog.py" line="30"/>
        <source>Insert prompt</source>
        <translation>插入提示词</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/prompt_variables_dialog.py" line="35"/>
        <source>Fill in the blanks. Enter moves to the next one.</source>
        <translation>请填写空白处。按 Enter 跳到下一项。</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/prompt_variables_dialog.py" line="51"/>
        <source>Insert</source>
        <translation>插入</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/prompt_variables_dialog.py" line="53"/>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
</context>
<context>
    <name>PromptsPage</name>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/prompts_page.py" line="45"/>
        <source>Prompts you use often. Type / at the start of a message to insert one. Write {{name}} where a prompt should ask for a word when it is inserted.</source>
        <translation>你常用的提示词。在消息开头输入 / 即可插入。在提示词中写上 {{name}}，插入时会询问要填入的内容。</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/prompts_page.py" line="54"/>
        <source>Saved prompts</source>
        <translation>已保存的提示词</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/prompts_page.py" line="61"/>
        <source>No saved prompts yet. Add your own, or start from a few examples.</source>
        <translation>暂无已保存的提示词。可以自己添加，也可以从几个示例开始。</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/prompts_page.py" line="66"/>
        <source>Add examples</source>
        <translation>添加示例</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/prompts_page.py" line="67"/>
        <source>Summarise, Translate and Explain code</source>
        <translation>总结、翻译和解释代码</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/prompts_page.py" line="78"/>
        <source>Add</source>
        <translation>添加</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/prompts_page.py" line="80"/>
        <source>Duplicate</source>
        <translation>创建副本</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/prompts_page.py" line="82"/>
        <source>Delete</source>
        <translation>删除</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/prompts_page.py" line="87"/>
        <source>Title</source>
        <translation>标题</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/prompts_page.py" line="90"/>
        <source>Prompt title</source>
        <translation>提示词标题</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/prompts_page.py" line="91"/>
        <source>e.g. Summarise</source>
        <translation>例如：总结</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/prompts_page.py" line="96"/>
        <source>Text</source>
        <translation>内容</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/prompts_page.py" line="100"/>
        <source>Prompt text</source>
        <translation>提示词内容</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/prompts_page.py" line="102"/>
        <source>e.g. Translate the following into {{language}}:</source>
        <translation>例如：将以下内容翻译成{{language}}：</translation>
    </message>
</context>
<context>
    <name>ProviderForm</name>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/provider_form.py" line="74"/>
        <source>e.g. Local server</source>
        <translation>例如：本地服务器</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/provider_form.py" line="78"/>
        <source>OpenAI Chat Completions (and compatible)</source>
        <translation>OpenAI Chat Completions（及兼容接口）</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/provider_form.py" line="79"/>
        <source>OpenAI Responses</source>
        <translation>OpenAI Responses</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/provider_form.py" line="80"/>
        <source>Anthropic Messages</source>
        <translation>Anthropic Messages</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/provider_form.py" line="81"/>
        <source>Google Gemini</source>
        <translation>Google Gemini</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/provider_form.py" line="82"/>
        <source>Ollama</source>
        <translation>Ollama</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/provider_form.py" line="97"/>
        <source>Test connection</source>
        <translation>测试连接</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/provider_form.py" line="99"/>
        <source>List the server&apos;s models (or ask the model for one token) with these settings</source>
        <translation>使用这些设置列出服务器的模型（或请模型回复一个 Token）</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/provider_form.py" line="108"/>
        <source>One model id per line, or fetch them</source>
        <translation>每行一个模型 ID，或从服务器获取</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/provider_form.py" line="112"/>
        <source>Fetch models</source>
        <translation>获取模型</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/provider_form.py" line="113"/>
        <source>Ask the server which models it offers</source>
        <translation>询问服务器提供哪些模型</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/provider_form.py" line="129"/>
        <source> s</source>
        <translation> 秒</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/provider_form.py" line="165"/>
        <source>Merged over every request Parley sends; null removes a field.</source>
        <translation>合并到 Parley 发送的每个请求中；null 表示删除该字段。</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/provider_form.py" line="172"/>
        <source>How long the server may stay silent, before its first word or between two, before Parley gives up. Give more to a local server that loads a large model or a model that thinks at length.</source>
        <translation>服务器在开始输出前或两次输出之间可以保持无响应的最长时间，超过后 Parley 将放弃。加载大型模型的本地服务器或需要长时间思考的模型，可设置更长的时间。</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/provider_form.py" line="190"/>
        <source>Connection</source>
        <translation>连接</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/provider_form.py" line="191"/>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/provider_form.py" line="196"/>
        <source>Protocol</source>
        <translation>协议</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/provider_form.py" line="197"/>
        <source>Base URL</source>
        <translation>API 地址</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/provider_form.py" line="198"/>
        <source>API key</source>
        <translation>API 密钥</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/provider_form.py" line="200"/>
        <location filename="../../desktop/ui/views/settings_pages/provider_form.py" line="201"/>
        <source>Models</source>
        <translation>模型</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/provider_form.py" line="202"/>
        <source>Default model</source>
        <translation>默认模型</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/provider_form.py" line="203"/>
        <source>Requests</source>
        <translation>请求</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/provider_form.py" line="204"/>
        <source>Custom headers</source>
        <translation>自定义请求头</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/provider_form.py" line="205"/>
        <source>Extra JSON body</source>
        <translation>额外 JSON 请求体</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/provider_form.py" line="206"/>
        <source>Stall timeout</source>
        <translation>无响应超时</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/provider_form.py" line="207"/>
        <source>Model capabilities</source>
        <translation>模型能力</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/provider_form.py" line="210"/>
        <source>What Parley assumes each model can do. Change it when a model can do more or less than its family usually can.</source>
        <translation>Parley 对每个模型能力的默认假设。当某个模型的能力多于或少于其系列的通常水平时，请在此修改。</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/provider_form.py" line="261"/>
        <source>This service also speaks: %1</source>
        <translation>此服务还支持：%1</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/provider_form.py" line="370"/>
        <source>Saved in the keyring — leave empty to keep it</source>
        <translation>已保存在密钥环中 — 留空则保持不变</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/provider_form.py" line="372"/>
        <source>Required for this service</source>
        <translation>此服务必填</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/provider_form.py" line="374"/>
        <source>Not needed for most local servers</source>
        <translation>大多数本地服务器无需填写</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/provider_form.py" line="376"/>
        <source>&lt;a href=&quot;%1&quot;&gt;Get an API key&lt;/a&gt;</source>
        <translation>&lt;a href=&quot;%1&quot;&gt;获取 API 密钥&lt;/a&gt;</translation>
    </message>
</context>
<context>
    <name>ProvidersPage</name>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/providers_page.py" line="70"/>
        <source>Add</source>
        <translation>添加</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/providers_page.py" line="72"/>
        <source>Remove</source>
        <translation>移除</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/providers_page.py" line="117"/>
        <source>Unavailable: no system keyring</source>
        <translation>不可用：没有系统密钥环</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/providers_page.py" line="278"/>
        <source>Saved.</source>
        <translation>已保存。</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/providers_page.py" line="307"/>
        <source>Asking the server for its models…</source>
        <translation>正在向服务器获取模型列表…</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/providers_page.py" line="68"/>
        <source>No providers yet — choose a service on the right.</source>
        <translation>暂无服务商 — 请在右侧选择一个服务。</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/providers_page.py" line="292"/>
        <source>Remove provider</source>
        <translation>移除服务商</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/providers_page.py" line="294"/>
        <source>Remove the provider “%1”? Its API key is deleted from the keyring; chats with its models are kept.</source>
        <translation>要移除服务商“%1”吗？其 API 密钥将从密钥环中删除；使用其模型的对话会保留。</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/providers_page.py" line="312"/>
        <source>The server offers no models.</source>
        <translation>服务器没有提供任何模型。</translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/ui/views/settings_pages/providers_page.py" line="314"/>
        <source>%n model(s) found and saved.</source>
        <translation>
            <numerusform>找到并保存了 %n 个模型。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/ui/views/settings_pages/providers_page.py" line="315"/>
        <source>%n model(s) found.</source>
        <translation>
            <numerusform>找到 %n 个模型。</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/providers_page.py" line="324"/>
        <source>Connecting…</source>
        <translation>正在连接…</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/providers_page.py" line="334"/>
        <source>This server keeps no model list: type its model ids, one per line</source>
        <translation>此服务器不提供模型列表：请填写模型 ID，每行一个</translation>
    </message>
</context>
<context>
    <name>ReasoningCard</name>
    <message>
        <location filename="../../desktop/ui/views/message_widget.py" line="316"/>
        <source>Reasoning: %1</source>
        <translation>思考过程：%1</translation>
    </message>
</context>
<context>
    <name>RecoveryKeyDialog</name>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/recovery_key_dialog.py" line="32"/>
        <source>Sync Recovery Key</source>
        <translation>同步恢复密钥</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/recovery_key_dialog.py" line="37"/>
        <source>This key opens the vault like its passphrase does: use it to join from another computer if the passphrase is forgotten. Anyone who has it can read what is synced. Keep it somewhere safe, away from this computer.</source>
        <translation>这个密钥和密码短语一样能打开保险库：忘记密码短语时，可以用它从另一台电脑加入。任何拿到它的人都能读取同步的内容。请把它存放在安全的地方，不要只放在这台电脑上。</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/recovery_key_dialog.py" line="48"/>
        <source>Recovery key</source>
        <translation>恢复密钥</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/recovery_key_dialog.py" line="49"/>
        <source>&amp;Copy</source>
        <translation>复制(&amp;C)</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/recovery_key_dialog.py" line="51"/>
        <source>&amp;Save to File…</source>
        <translation>保存到文件(&amp;S)…</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/recovery_key_dialog.py" line="74"/>
        <source>Copied.</source>
        <translation>已复制。</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/recovery_key_dialog.py" line="77"/>
        <source>Save the Recovery Key</source>
        <translation>保存恢复密钥</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/recovery_key_dialog.py" line="79"/>
        <source>Parley sync recovery key.txt</source>
        <translation>Parley 同步恢复密钥.txt</translation>
    </message>
</context>
<context>
    <name>RestorePanel</name>
    <message>
        <location filename="../../desktop/ui/views/restore_panel.py" line="41"/>
        <source>Re&amp;fresh</source>
        <translation>刷新(&amp;F)</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/restore_panel.py" line="59"/>
        <source>Backups</source>
        <translation>备份列表</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/restore_panel.py" line="69"/>
        <source>Restore adds what this computer lacks: nothing here is deleted or overwritten by older data, and what you deleted here stays deleted.</source>
        <translation>恢复只会补充本机缺少的内容：不会删除本机的任何数据，也不会用较旧的数据覆盖它；你在本机删除的内容也不会被恢复。</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/restore_panel.py" line="74"/>
        <source>Re&amp;place This Computer&apos;s Data…</source>
        <translation>替换本机数据(&amp;P)…</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/restore_panel.py" line="77"/>
        <source>&amp;Restore</source>
        <translation>恢复(&amp;R)</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/restore_panel.py" line="85"/>
        <source>Pa&amp;ssphrase</source>
        <translation>密码短语(&amp;S)</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/restore_panel.py" line="129"/>
        <source>Choose where backups go in the Back Up tab first.</source>
        <translation>请先在“备份”标签页中选择备份的存放位置。</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/restore_panel.py" line="132"/>
        <source>Backups in %1, newest first:</source>
        <translation>%1 中的备份（最新的在前）：</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/restore_panel.py" line="138"/>
        <source>There are no Parley backups there yet.</source>
        <translation>该位置还没有 Parley 备份。</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/restore_panel.py" line="170"/>
        <source>Leave empty to use the passphrase kept in the keyring</source>
        <translation>留空则使用保存在密钥环中的密码短语</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/restore_panel.py" line="190"/>
        <source>Replace This Computer&apos;s Data</source>
        <translation>替换本机数据</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/restore_panel.py" line="192"/>
        <source>Replace this computer&apos;s chats, memories and settings with the backup made %1 on %2?

What was added here since that backup is no longer shown. Parley first keeps a copy of the current database; where it is is said once the restore is done.</source>
        <translation>要用 %2 在 %1 创建的备份替换本机的对话、记忆和设置吗？

此备份之后在本机新增的内容将不再显示。Parley 会先保留一份当前数据库的副本，恢复完成后会告诉你副本的位置。</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/restore_panel.py" line="202"/>
        <source>Replace</source>
        <translation>替换</translation>
    </message>
</context>
<context>
    <name>RestoreViewModel</name>
    <message>
        <location filename="../../desktop/ui/viewmodels/backup_restore.py" line="50"/>
        <source>Made</source>
        <translation>创建时间</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/backup_restore.py" line="50"/>
        <source>Computer</source>
        <translation>电脑</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/backup_restore.py" line="50"/>
        <source>Size</source>
        <translation>大小</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/backup_restore.py" line="98"/>
        <source>%1 (this computer)</source>
        <translation>%1（本机）</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/backup_restore.py" line="136"/>
        <source>Enter the passphrase the backup was made with.</source>
        <translation>请输入创建此备份时使用的密码短语。</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/backup_restore.py" line="143"/>
        <source>The restore was cancelled; nothing changed.</source>
        <translation>恢复已取消，未做任何更改。</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/backup_restore.py" line="160"/>
        <source>This computer&apos;s data is now the backup&apos;s.</source>
        <translation>本机数据已替换为备份中的数据。</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/backup_restore.py" line="163"/>
        <source>The database as it was is kept at %1.</source>
        <translation>原数据库已保留在 %1。</translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/ui/viewmodels/backup_restore.py" line="172"/>
        <source>%Ln conversation(s) added</source>
        <translation>
            <numerusform>新增 %Ln 个对话</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/ui/viewmodels/backup_restore.py" line="174"/>
        <source>%Ln message(s) added</source>
        <translation>
            <numerusform>新增 %Ln 条消息</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/ui/viewmodels/backup_restore.py" line="177"/>
        <source>%Ln conversation(s) updated</source>
        <translation>
            <numerusform>更新 %Ln 个对话</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/ui/viewmodels/backup_restore.py" line="179"/>
        <source>%Ln memory(-ies) added</source>
        <translation>
            <numerusform>新增 %Ln 条记忆</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/ui/viewmodels/backup_restore.py" line="182"/>
        <source>%Ln memory(-ies) updated</source>
        <translation>
            <numerusform>更新 %Ln 条记忆</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/ui/viewmodels/backup_restore.py" line="184"/>
        <source>%Ln file(s) added</source>
        <translation>
            <numerusform>新增 %Ln 个文件</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/ui/viewmodels/backup_restore.py" line="185"/>
        <source>%Ln assistant(s) added</source>
        <translation>
            <numerusform>新增 %Ln 个助手</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/ui/viewmodels/backup_restore.py" line="186"/>
        <source>%Ln prompt(s) added</source>
        <translation>
            <numerusform>新增 %Ln 个提示词</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/backup_restore.py" line="190"/>
        <source>Restored: %1.</source>
        <translation>已恢复：%1。</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/backup_restore.py" line="190"/>
        <source>; </source>
        <translation>；</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/backup_restore.py" line="192"/>
        <source>This computer already had everything in the backup.</source>
        <translation>本机已包含备份中的所有内容。</translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/ui/viewmodels/backup_restore.py" line="196"/>
        <source>%Ln message(s) deleted on this computer stayed deleted.</source>
        <translation>
            <numerusform>本机已删除的 %Ln 条消息仍保持删除状态。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/ui/viewmodels/backup_restore.py" line="204"/>
        <source>%Ln provider(s) were added without their API keys: enter them in Settings → Providers.</source>
        <translation>
            <numerusform>已添加 %Ln 个服务商，但未包含其 API 密钥：请在“设置 → 模型服务商”中填写。</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>SecretField</name>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/secret_field.py" line="32"/>
        <source>Replace</source>
        <translation>更换</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/secret_field.py" line="34"/>
        <source>Remove</source>
        <translation>移除</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/secret_field.py" line="82"/>
        <source>Type the new one; leave empty to keep the saved one</source>
        <translation>输入新的密钥或密码；留空则保持不变</translation>
    </message>
</context>
<context>
    <name>SettingsBar</name>
    <message>
        <location filename="../../desktop/ui/views/settings_bar.py" line="30"/>
        <source>Undo</source>
        <translation>撤销</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_bar.py" line="34"/>
        <source>Close</source>
        <translation>关闭</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_bar.py" line="45"/>
        <location filename="../../desktop/ui/views/settings_bar.py" line="46"/>
        <source>Saved</source>
        <translation>已保存</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_bar.py" line="47"/>
        <source>Undone</source>
        <translation>已撤销</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_bar.py" line="54"/>
        <source>Changes are saved as you make them.</source>
        <translation>更改会即时保存。</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_bar.py" line="63"/>
        <source>Not saved</source>
        <translation>未保存</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_bar.py" line="69"/>
        <source>Undo “%1” (Ctrl+Z).</source>
        <translation>撤销“%1”（Ctrl+Z）。</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_bar.py" line="70"/>
        <source>Keys and passwords kept in the keyring are not undone.</source>
        <translation>保存在密钥环中的密钥和密码不会被撤销。</translation>
    </message>
</context>
<context>
    <name>SettingsChanges</name>
    <message>
        <location filename="../../desktop/ui/viewmodels/settings_change_names.py" line="19"/>
        <source>Providers</source>
        <translation>模型服务商</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/settings_change_names.py" line="20"/>
        <source>Theme</source>
        <translation>主题</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/settings_change_names.py" line="21"/>
        <source>Text size</source>
        <translation>字号</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/settings_change_names.py" line="22"/>
        <source>Remote images</source>
        <translation>远程图片</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/settings_change_names.py" line="25"/>
        <source>Language</source>
        <translation>语言</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/settings_change_names.py" line="26"/>
        <source>Last model</source>
        <translation>上次使用的模型</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/settings_change_names.py" line="27"/>
        <source>Proxy</source>
        <translation>代理</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/settings_change_names.py" line="28"/>
        <source>Proxy URL</source>
        <translation>代理地址</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/settings_change_names.py" line="29"/>
        <source>CA bundle</source>
        <translation>CA 证书包</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/settings_change_names.py" line="30"/>
        <source>Reasoning effort</source>
        <translation>思考强度</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/settings_change_names.py" line="31"/>
        <source>Tool permissions</source>
        <translation>工具权限</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/settings_change_names.py" line="32"/>
        <source>Always allowed tools</source>
        <translation>始终允许的工具</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/settings_change_names.py" line="35"/>
        <source>MCP servers</source>
        <translation>MCP 服务器</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/settings_change_names.py" line="36"/>
        <source>MCP servers allowed to start</source>
        <translation>允许启动的 MCP 服务器</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/settings_change_names.py" line="39"/>
        <source>OCR model</source>
        <translation>OCR 模型</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/settings_change_names.py" line="40"/>
        <source>Tray</source>
        <translation>托盘</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/settings_change_names.py" line="41"/>
        <source>Notifications</source>
        <translation>通知</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/settings_change_names.py" line="44"/>
        <source>Floating chat shortcut</source>
        <translation>悬浮窗快捷键</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/settings_change_names.py" line="47"/>
        <source>Utility model</source>
        <translation>辅助模型</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/settings_change_names.py" line="48"/>
        <source>Prices</source>
        <translation>价格</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/settings_change_names.py" line="49"/>
        <source>Currency</source>
        <translation>货币</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/settings_change_names.py" line="50"/>
        <source>Chat titles</source>
        <translation>对话标题</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/settings_change_names.py" line="51"/>
        <source>Follow-up suggestions</source>
        <translation>追问建议</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/settings_change_names.py" line="54"/>
        <source>Assistants</source>
        <translation>助手</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/settings_change_names.py" line="55"/>
        <source>Default assistant</source>
        <translation>默认助手</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/settings_change_names.py" line="56"/>
        <source>Knowledge libraries</source>
        <translation>知识库</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/settings_change_names.py" line="57"/>
        <source>Web search engine</source>
        <translation>网络搜索引擎</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/settings_change_names.py" line="60"/>
        <source>SearXNG address</source>
        <translation>SearXNG 地址</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/settings_change_names.py" line="63"/>
        <source>SearXNG user name</source>
        <translation>SearXNG 用户名</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/settings_change_names.py" line="66"/>
        <source>Results per search</source>
        <translation>每次搜索结果数</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/settings_change_names.py" line="69"/>
        <source>Opening web pages</source>
        <translation>网页读取</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/settings_change_names.py" line="72"/>
        <source>Memory</source>
        <translation>记忆</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/settings_change_names.py" line="73"/>
        <source>Prompts</source>
        <translation>提示词</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/settings_change_names.py" line="95"/>
        <source>, </source>
        <translation>、</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/settings_change_names.py" line="96"/>
        <source>%1 changed</source>
        <translation>已更改%1</translation>
    </message>
</context>
<context>
    <name>SettingsDialog</name>
    <message>
        <location filename="../../desktop/ui/views/settings_dialog.py" line="58"/>
        <source>Settings</source>
        <translation>设置</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_dialog.py" line="71"/>
        <source>Providers</source>
        <translation>模型服务商</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_dialog.py" line="94"/>
        <source>Appearance</source>
        <translation>外观</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_dialog.py" line="96"/>
        <source>Network</source>
        <translation>网络</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_dialog.py" line="73"/>
        <source>Assistants</source>
        <translation>助手</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_dialog.py" line="63"/>
        <source>Settings categories</source>
        <translation>设置分类</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_dialog.py" line="75"/>
        <source>Prompts</source>
        <translation>提示词</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_dialog.py" line="77"/>
        <source>Knowledge</source>
        <translation>知识库</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_dialog.py" line="80"/>
        <source>Memory</source>
        <translation>记忆</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_dialog.py" line="82"/>
        <source>Web search</source>
        <translation>网络搜索</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_dialog.py" line="85"/>
        <source>Tools</source>
        <translation>工具</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_dialog.py" line="88"/>
        <source>MCP servers</source>
        <translation>MCP 服务器</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_dialog.py" line="90"/>
        <source>OCR</source>
        <translation>文字识别 (OCR)</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_dialog.py" line="92"/>
        <source>Usage &amp;&amp; models</source>
        <translation>用量与模型</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_dialog.py" line="99"/>
        <source>Sync</source>
        <translation>同步</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_dialog.py" line="101"/>
        <source>Desktop</source>
        <translation>桌面</translation>
    </message>
</context>
<context>
    <name>SettingsUndo</name>
    <message>
        <location filename="../../desktop/ui/viewmodels/settings_undo.py" line="139"/>
        <source>Could not save settings: %1</source>
        <translation>无法保存设置：%1</translation>
    </message>
</context>
<context>
    <name>SettingsViewModel</name>
    <message>
        <location filename="../../desktop/ui/viewmodels/settings.py" line="183"/>
        <source>The settings file %1 is invalid: %2.</source>
        <translation>设置文件 %1 无效：%2。</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/settings.py" line="188"/>
        <source>A copy was kept at %1.</source>
        <translation>已在 %1 保留一份副本。</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/settings.py" line="191"/>
        <source>Parley started with default settings.</source>
        <translation>Parley 已使用默认设置启动。</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/settings.py" line="200"/>
        <source>The network settings could not be applied: %1. Parley uses the system&apos;s certificates only until this is fixed in Settings → Network.</source>
        <translation>无法应用网络设置：%1。在“设置 → 网络”中修复之前，Parley 仅使用系统证书。</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/settings.py" line="249"/>
        <source>Provider %1 saved</source>
        <translation>已保存服务商 %1</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/settings.py" line="267"/>
        <source>Provider %1 removed, with its API key</source>
        <translation>已移除服务商 %1 及其 API 密钥</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/settings.py" line="326"/>
        <source>Connected: %1 answered.</source>
        <translation>已连接：%1 已回复。</translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/ui/viewmodels/settings.py" line="328"/>
        <source>Connected: %n model(s) available.</source>
        <translation>
            <numerusform>已连接：%n 个模型可用。</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/settings.py" line="330"/>
        <source>Connected, but the server offers no models.</source>
        <translation>已连接，但服务器没有提供任何模型。</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/settings.py" line="398"/>
        <source>Could not save settings: %1</source>
        <translation>无法保存设置：%1</translation>
    </message>
</context>
<context>
    <name>ShortcutsDialog</name>
    <message>
        <location filename="../../desktop/ui/views/shortcuts_dialog.py" line="67"/>
        <location filename="../../desktop/ui/views/shortcuts_dialog.py" line="68"/>
        <source>Keyboard Shortcuts</source>
        <translation>键盘快捷键</translation>
    </message>
</context>
<context>
    <name>Sidebar</name>
    <message>
        <location filename="../../desktop/ui/views/sidebar.py" line="47"/>
        <location filename="../../desktop/ui/views/sidebar.py" line="84"/>
        <source>Chats</source>
        <translation>对话</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/sidebar.py" line="49"/>
        <location filename="../../desktop/ui/views/sidebar.py" line="52"/>
        <source>New chat</source>
        <translation>新对话</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/sidebar.py" line="51"/>
        <source>Start a new chat (Ctrl+N)</source>
        <translation>开始新对话（Ctrl+N）</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/sidebar.py" line="53"/>
        <source>Starts a new, empty chat</source>
        <translation>开始一个新的空白对话</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/sidebar.py" line="59"/>
        <source>Search chats (Ctrl+K)</source>
        <translation>搜索对话（Ctrl+K）</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/sidebar.py" line="61"/>
        <source>Search chats</source>
        <translation>搜索对话</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/sidebar.py" line="63"/>
        <source>Finds chats by title and message text; Down moves into the results</source>
        <translation>按标题和消息内容查找对话；按下方向键进入结果列表</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/sidebar.py" line="71"/>
        <source>Search results</source>
        <translation>搜索结果</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/sidebar.py" line="78"/>
        <source>No chats match.</source>
        <translation>没有匹配的对话。</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/sidebar.py" line="86"/>
        <source>Your chats, pinned first, then by date; F2 renames, Delete removes one</source>
        <translation>你的对话，置顶的在前，其余按日期排列；F2 重命名，Delete 删除</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/sidebar.py" line="104"/>
        <source>Delete</source>
        <translation>删除</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/sidebar.py" line="141"/>
        <source>Delete chat?</source>
        <translation>删除对话？</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/sidebar.py" line="142"/>
        <source>Delete “%1”? Its messages will be removed from this computer.</source>
        <translation>删除“%1”？其消息将从这台电脑上移除。</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/sidebar.py" line="211"/>
        <source>Unpin</source>
        <translation>取消置顶</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/sidebar.py" line="211"/>
        <source>Pin</source>
        <translation>置顶</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/sidebar.py" line="214"/>
        <source>Rename</source>
        <translation>重命名</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/sidebar.py" line="215"/>
        <source>Export…</source>
        <translation>导出…</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/sidebar.py" line="217"/>
        <source>Delete…</source>
        <translation>删除…</translation>
    </message>
</context>
<context>
    <name>SourceDialog</name>
    <message>
        <location filename="../../desktop/ui/views/source_dialog.py" line="53"/>
        <source>Open file</source>
        <translation>打开文件</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/source_dialog.py" line="71"/>
        <source>Source %1 — %2</source>
        <translation>来源 %1 — %2</translation>
    </message>
</context>
<context>
    <name>SourcePanel</name>
    <message>
        <location filename="../../desktop/ui/viewmodels/sources.py" line="102"/>
        <source>The file is no longer there.</source>
        <translation>文件已不存在。</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/sources.py" line="105"/>
        <source>The file cannot be read now (%1); showing the passage as it was quoted.</source>
        <translation>暂时无法读取文件（%1）；显示的是引用时的段落。</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/sources.py" line="109"/>
        <source>This file has changed since this answer; showing the passage as it was quoted.</source>
        <translation>此文件在这条回答之后已被修改；显示的是引用时的段落。</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/sources.py" line="153"/>
        <source>Reading the file…</source>
        <translation>正在读取文件…</translation>
    </message>
</context>
<context>
    <name>Starters</name>
    <message>
        <location filename="../../desktop/ui/viewmodels/starters.py" line="16"/>
        <source>What can you help me with?</source>
        <translation>你能帮我做些什么？</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/starters.py" line="17"/>
        <source>Explain how compound interest works, simply</source>
        <translation>简单解释一下复利是怎么回事</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/starters.py" line="18"/>
        <source>Help me write a polite email declining a meeting</source>
        <translation>帮我写一封礼貌地拒绝会议邀请的邮件</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/starters.py" line="19"/>
        <source>Give me three ideas for a weekend project</source>
        <translation>给我三个周末项目的点子</translation>
    </message>
</context>
<context>
    <name>SuggestionChips</name>
    <message>
        <location filename="../../desktop/ui/views/suggestion_chips.py" line="40"/>
        <source>Send this as your next message</source>
        <translation>将此作为你的下一条消息发送</translation>
    </message>
</context>
<context>
    <name>SummaryDivider</name>
    <message>
        <location filename="../../desktop/ui/views/summary_divider.py" line="37"/>
        <source>Earlier messages summarised</source>
        <translation>较早的消息已摘要</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/summary_divider.py" line="39"/>
        <source>Older messages are sent as this summary; your history stays intact</source>
        <translation>较早的消息会以此摘要发送；你的历史记录保持完整</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/summary_divider.py" line="60"/>
        <source>Edit…</source>
        <translation>编辑…</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/summary_divider.py" line="62"/>
        <source>Compress now…</source>
        <translation>立即压缩…</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/summary_divider.py" line="63"/>
        <source>Summarise all but the last few messages now</source>
        <translation>立即为除最近几条以外的所有消息生成摘要</translation>
    </message>
</context>
<context>
    <name>SummaryEditor</name>
    <message>
        <location filename="../../desktop/ui/views/summary_divider.py" line="110"/>
        <source>Edit summary</source>
        <translation>编辑摘要</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/summary_divider.py" line="122"/>
        <source>The model gets this instead of the older messages.</source>
        <translation>模型将收到这段摘要，而不是较早的消息。</translation>
    </message>
</context>
<context>
    <name>SyncPage</name>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/sync_page.py" line="51"/>
        <source>Sync keeps your chats, their files and memories the same on each of your computers, through a folder, a WebDAV server or S3 storage you choose. Everything is encrypted here first: the storage only sees scrambled data.</source>
        <translation>同步让你每台电脑上的聊天、附件和记忆保持一致，通过你选择的文件夹、WebDAV 服务器或 S3 存储进行。所有内容都先在本机加密：存储端只能看到加密后的数据。</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/sync_page.py" line="60"/>
        <source>&amp;Vault is in</source>
        <translation>存放位置(&amp;V)</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/sync_page.py" line="61"/>
        <source>e.g. a folder in Nextcloud, Syncthing or a shared drive</source>
        <translation>例如 Nextcloud、Syncthing 或共享盘中的文件夹</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/sync_page.py" line="62"/>
        <source>Folder for the Sync Vault</source>
        <translation>同步保险库所在文件夹</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/sync_page.py" line="73"/>
        <source>Where the vault is</source>
        <translation>保险库位置</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/sync_page.py" line="104"/>
        <source>&amp;Sync Now</source>
        <translation>立即同步(&amp;S)</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/sync_page.py" line="111"/>
        <source> min</source>
        <translation> 分钟</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/sync_page.py" line="117"/>
        <source>Device</source>
        <translation>设备</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/sync_page.py" line="117"/>
        <source>Last sent changes</source>
        <translation>上次发送更改</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/sync_page.py" line="123"/>
        <source>Re&amp;move Device…</source>
        <translation>移除设备(&amp;M)…</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/sync_page.py" line="125"/>
        <source>Sh&amp;ow Recovery Key…</source>
        <translation>显示恢复密钥(&amp;O)…</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/sync_page.py" line="127"/>
        <source>Lea&amp;ve Vault…</source>
        <translation>退出保险库(&amp;V)…</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/sync_page.py" line="135"/>
        <source>&amp;Look for changes every</source>
        <translation>检查更改的间隔(&amp;L)</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/sync_page.py" line="148"/>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/sync_page.py" line="157"/>
        <source>&amp;Devices</source>
        <translation>设备(&amp;D)</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/sync_page.py" line="165"/>
        <source>A removed device stops syncing; the copy it has keeps what it already synced. If a device was lost, make a new vault with a new passphrase.</source>
        <translation>被移除的设备会停止同步，但它已同步的内容仍保留在它的副本中。如果设备丢失，请用新的密码短语创建一个新保险库。</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/sync_page.py" line="172"/>
        <source>Vault</source>
        <translation>保险库</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/sync_page.py" line="196"/>
        <source>Res&amp;ume Syncing</source>
        <translation>恢复同步(&amp;U)</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/sync_page.py" line="196"/>
        <source>Pa&amp;use Syncing</source>
        <translation>暂停同步(&amp;U)</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/sync_page.py" line="264"/>
        <source>Remove “%1” from the vault? It stops syncing: the other devices ignore what it sends from now on. The copy it has still holds everything it synced so far.</source>
        <translation>要将“%1”移出保险库吗？它将停止同步：从现在起，其他设备会忽略它发送的内容。它的副本仍保留目前已同步的全部内容。</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/sync_page.py" line="268"/>
        <source>Remove Device</source>
        <translation>移除设备</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/sync_page.py" line="270"/>
        <source>Remove</source>
        <translation>移除</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/sync_page.py" line="276"/>
        <source>Leave the sync vault? This computer stops syncing; its chats stay here, and the vault and your other devices are not changed. You can join again with the passphrase or the recovery key.</source>
        <translation>要退出同步保险库吗？这台电脑将停止同步；它的聊天仍保留在这里，保险库和你的其他设备不受影响。之后可以用密码短语或恢复密钥重新加入。</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/sync_page.py" line="281"/>
        <source>Leave Vault</source>
        <translation>退出保险库</translation>
    </message>
</context>
<context>
    <name>SyncSetup</name>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/sync_setup.py" line="28"/>
        <source>The first computer creates the vault; your other computers join it. Chats are encrypted on this computer before they are sent.</source>
        <translation>由第一台电脑创建保险库，其他电脑加入它。聊天在发送前会先在本机加密。</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/sync_setup.py" line="38"/>
        <source>If you lose both the passphrase and the recovery key, nobody, not even you, can read the synced data again. Keep them somewhere safe.</source>
        <translation>如果密码短语和恢复密钥都丢失了，任何人（包括你自己）都无法再读取同步的数据。请把它们存放在安全的地方。</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/sync_setup.py" line="43"/>
        <source>&amp;Create Vault</source>
        <translation>创建保险库(&amp;C)</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/sync_setup.py" line="54"/>
        <source>&amp;Join Vault</source>
        <translation>加入保险库(&amp;J)</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/sync_setup.py" line="60"/>
        <source>Pa&amp;ssphrase</source>
        <translation>密码短语(&amp;S)</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/sync_setup.py" line="63"/>
        <source>&amp;Repeat</source>
        <translation>再次输入(&amp;R)</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/sync_setup.py" line="70"/>
        <source>Passphrase or rec&amp;overy key</source>
        <translation>密码短语或恢复密钥(&amp;O)</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/sync_setup.py" line="78"/>
        <source>Create a vault</source>
        <translation>创建保险库</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/sync_setup.py" line="82"/>
        <source>Join a vault</source>
        <translation>加入保险库</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/sync_setup.py" line="86"/>
        <source>On your other computers, choose the same place above, then type the vault&apos;s passphrase or its recovery key here.</source>
        <translation>在你的其他电脑上，在上方选择相同的位置，然后在这里输入保险库的密码短语或恢复密钥。</translation>
    </message>
</context>
<context>
    <name>SyncWords</name>
    <message>
        <location filename="../../desktop/ui/viewmodels/sync_words.py" line="33"/>
        <source>This computer is not in a sync vault.</source>
        <translation>这台电脑尚未加入同步保险库。</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/sync_words.py" line="36"/>
        <source>Last synced %1.</source>
        <translation>上次同步于 %1。</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/sync_words.py" line="38"/>
        <source>Not synced yet.</source>
        <translation>尚未同步。</translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/ui/viewmodels/sync_words.py" line="41"/>
        <source>%n change(s) here wait to be sent.</source>
        <translation>
            <numerusform>本机有 %n 项更改等待发送。</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/sync_words.py" line="43"/>
        <source>Nothing here waits to be sent.</source>
        <translation>本机没有等待发送的更改。</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/sync_words.py" line="45"/>
        <source>Syncing is paused: changes wait here until you resume.</source>
        <translation>同步已暂停：更改会保留在本机，直到你恢复同步。</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/sync_words.py" line="49"/>
        <source>The keyring is not available, so the vault key is kept only until Parley quits: join again after the next start.</source>
        <translation>密钥环不可用，因此保险库密钥只保留到 Parley 退出为止：下次启动后需要重新加入。</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/sync_words.py" line="54"/>
        <source>The last sync failed: %1</source>
        <translation>上次同步失败：%1</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/sync_words.py" line="60"/>
        <source>Receiving changes from other devices…</source>
        <translation>正在接收其他设备的更改…</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/sync_words.py" line="62"/>
        <source>Sending this computer&apos;s changes…</source>
        <translation>正在发送本机的更改…</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/sync_words.py" line="63"/>
        <source>Syncing…</source>
        <translation>正在同步…</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/sync_words.py" line="68"/>
        <source>Some changes were refused:</source>
        <translation>部分更改被拒绝：</translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/ui/viewmodels/sync_words.py" line="75"/>
        <source>A reply from another device brought back %n chat(s) you had deleted here:</source>
        <translation>
            <numerusform>另一台设备上的回复恢复了 %n 个你在本机删除的聊天：</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/sync_words.py" line="88"/>
        <source>%1 (this computer)</source>
        <translation>%1（本机）</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/sync_words.py" line="90"/>
        <source>Removed from the vault</source>
        <translation>已移出保险库</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/sync_words.py" line="94"/>
        <source>Has not sent changes yet</source>
        <translation>尚未发送过更改</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/sync_words.py" line="109"/>
        <source>This computer syncs through the saved place. To sync somewhere else, leave the vault first.</source>
        <translation>这台电脑正通过已保存的位置同步。要改用其他位置同步，请先退出保险库。</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/sync_words.py" line="114"/>
        <source>Enter the user name (for S3, the access key ID) first.</source>
        <translation>请先输入用户名（S3 为 Access Key ID）。</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/sync_words.py" line="120"/>
        <source>The keyring could not keep the password (%1), so Parley keeps it only until it quits.</source>
        <translation>密钥环无法保存密码（%1），因此 Parley 只会保留到退出为止。</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/sync_words.py" line="124"/>
        <source>Fix the field marked above first.</source>
        <translation>请先修正上方标出的字段。</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/sync_words.py" line="128"/>
        <source>Parley can use %1, and there is a vault there: join it.</source>
        <translation>Parley 可以使用 %1，那里已有一个保险库：请加入它。</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/sync_words.py" line="131"/>
        <source>Parley can use %1. There is no vault there yet: create one.</source>
        <translation>Parley 可以使用 %1。那里还没有保险库：请创建一个。</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/sync_words.py" line="136"/>
        <source>The two passphrases differ: type the same one in both fields.</source>
        <translation>两次输入的密码短语不一致：请在两个输入框中输入相同的密码短语。</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/sync_words.py" line="139"/>
        <source>Choose where the vault is first.</source>
        <translation>请先选择保险库的位置。</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/sync_words.py" line="142"/>
        <source>Wait until the sync running now ends.</source>
        <translation>请等待当前的同步结束。</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/sync_words.py" line="145"/>
        <source>Enter a passphrase to lock the vault with.</source>
        <translation>请输入用于锁定保险库的密码短语。</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/sync_words.py" line="148"/>
        <source>Enter the vault&apos;s passphrase or its recovery key.</source>
        <translation>请输入保险库的密码短语或恢复密钥。</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/sync_words.py" line="154"/>
        <source>Created a vault at %1. Keep the recovery key somewhere safe, then join the vault from your other computers.</source>
        <translation>已在 %1 创建保险库。请把恢复密钥存放在安全的地方，然后在你的其他电脑上加入这个保险库。</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/sync_words.py" line="159"/>
        <source>Joined the vault at %1. The first sync starts now.</source>
        <translation>已加入位于 %1 的保险库。首次同步现在开始。</translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/ui/viewmodels/sync_words.py" line="162"/>
        <source>Synced: %n change(s) received, %1 sent.</source>
        <translation>
            <numerusform>已同步：收到 %n 项更改，发送 %1 项。</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/sync_words.py" line="169"/>
        <source>The device was removed: the other devices ignore what it sends from now on.</source>
        <translation>该设备已被移除：从现在起，其他设备会忽略它发送的内容。</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/sync_words.py" line="172"/>
        <source>%1 was removed: the other devices ignore what it sends from now on.</source>
        <translation>%1 已被移除：从现在起，其他设备会忽略它发送的内容。</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/sync_words.py" line="176"/>
        <source>This computer left the vault. Its chats stay here.</source>
        <translation>这台电脑已退出保险库。它的聊天仍保留在这里。</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/sync_words.py" line="181"/>
        <source>The recovery key of a Parley sync vault. With it, anyone can read what is synced: keep it somewhere safe.</source>
        <translation>Parley 同步保险库的恢复密钥。任何人拿到它都能读取同步的内容：请把它存放在安全的地方。</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/sync_words.py" line="190"/>
        <source>Saved the recovery key to %1.</source>
        <translation>已将恢复密钥保存到 %1。</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/sync_words.py" line="194"/>
        <source>Could not save the recovery key to %1: %2</source>
        <translation>无法将恢复密钥保存到 %1：%2</translation>
    </message>
</context>
<context>
    <name>TargetForm</name>
    <message>
        <location filename="../../desktop/ui/views/backup_target_form.py" line="82"/>
        <source>A folder</source>
        <translation>文件夹</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/backup_target_form.py" line="84"/>
        <source>A WebDAV server (Nextcloud, ownCloud…)</source>
        <translation>WebDAV 服务器（Nextcloud、ownCloud…）</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/backup_target_form.py" line="86"/>
        <source>S3-compatible storage</source>
        <translation>S3 兼容存储</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/backup_target_form.py" line="99"/>
        <source>&amp;Test</source>
        <translation>测试(&amp;T)</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/backup_target_form.py" line="109"/>
        <source>Store backups &amp;in</source>
        <translation>备份存放位置(&amp;I)</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/backup_target_form.py" line="75"/>
        <source>e.g. /media/backup-disk/Parley</source>
        <translation>例如 /media/backup-disk/Parley</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/backup_target_form.py" line="160"/>
        <source>&amp;Browse…</source>
        <translation>浏览(&amp;B)…</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/backup_target_form.py" line="171"/>
        <source>&amp;Folder</source>
        <translation>文件夹(&amp;F)</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/backup_target_form.py" line="179"/>
        <source>A password is saved</source>
        <translation>已保存密码</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/backup_target_form.py" line="181"/>
        <source>&amp;Address</source>
        <translation>地址(&amp;A)</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/backup_target_form.py" line="182"/>
        <source>User &amp;name</source>
        <translation>用户名(&amp;N)</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/backup_target_form.py" line="184"/>
        <source>Pass&amp;word</source>
        <translation>密码(&amp;W)</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/backup_target_form.py" line="195"/>
        <source>Optional, e.g. backups/parley</source>
        <translation>可选，例如 backups/parley</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/backup_target_form.py" line="197"/>
        <source>A secret key is saved</source>
        <translation>已保存 Secret Access Key</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/backup_target_form.py" line="198"/>
        <source>Pa&amp;th-style addresses</source>
        <translation>路径样式地址(&amp;T)</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/backup_target_form.py" line="202"/>
        <source>Most services other than Amazon S3 need this (MinIO, Backblaze B2, Cloudflare R2, Garage).</source>
        <translation>除 Amazon S3 外，大多数服务都需要开启此项（MinIO、Backblaze B2、Cloudflare R2、Garage）。</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/backup_target_form.py" line="208"/>
        <source>&amp;Endpoint URL</source>
        <translation>端点 URL(&amp;E)</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/backup_target_form.py" line="209"/>
        <source>Re&amp;gion</source>
        <translation>区域(&amp;G)</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/backup_target_form.py" line="210"/>
        <source>Buc&amp;ket</source>
        <translation>存储桶(&amp;K)</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/backup_target_form.py" line="211"/>
        <source>Folder (&amp;prefix)</source>
        <translation>文件夹（前缀）(&amp;P)</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/backup_target_form.py" line="212"/>
        <source>&amp;Access key ID</source>
        <translation>Access Key ID(&amp;A)</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/backup_target_form.py" line="214"/>
        <source>Secret access ke&amp;y</source>
        <translation>Secret Access Key(&amp;Y)</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/backup_target_form.py" line="282"/>
        <source>The keyring is not available (%1): a password typed here is kept only until Parley quits.</source>
        <translation>密钥环不可用（%1）：在此输入的密码只会保留到 Parley 退出为止。</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/backup_target_form.py" line="314"/>
        <source>Testing…</source>
        <translation>正在测试…</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/backup_target_form.py" line="76"/>
        <source>Folder for Backups</source>
        <translation>备份文件夹</translation>
    </message>
</context>
<context>
    <name>ToolCard</name>
    <message>
        <location filename="../../desktop/ui/viewmodels/tool_card.py" line="42"/>
        <source>waiting for approval</source>
        <translation>等待批准</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/tool_card.py" line="43"/>
        <source>running</source>
        <translation>运行中</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/tool_card.py" line="44"/>
        <source>done</source>
        <translation>已完成</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/tool_card.py" line="45"/>
        <source>error</source>
        <translation>出错</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/tool_card.py" line="46"/>
        <location filename="../../desktop/ui/viewmodels/tool_card.py" line="60"/>
        <source>denied</source>
        <translation>已拒绝</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/tool_card.py" line="47"/>
        <source>answered</source>
        <translation>已回复</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/tool_card.py" line="48"/>
        <location filename="../../desktop/ui/viewmodels/tool_card.py" line="63"/>
        <source>interrupted</source>
        <translation>已中断</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/tool_card.py" line="49"/>
        <source>cancelled</source>
        <translation>已取消</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/tool_card.py" line="57"/>
        <source>allowed</source>
        <translation>已允许</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/tool_card.py" line="58"/>
        <source>approved once</source>
        <translation>已批准一次</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/tool_card.py" line="59"/>
        <source>always allowed</source>
        <translation>始终允许</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/tool_card.py" line="61"/>
        <source>answered instead</source>
        <translation>已改为回复</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/tool_card.py" line="62"/>
        <source>turned off</source>
        <translation>已关闭</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/tool_card.py" line="67"/>
        <source>by policy</source>
        <translation>（按策略）</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/tool_card.py" line="68"/>
        <source>by you</source>
        <translation>（由你决定）</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/tool_card.py" line="69"/>
        <source>by Parley</source>
        <translation>（由 Parley 决定）</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/tool_card.py" line="77"/>
        <source>%1 %2</source>
        <translation>%1%2</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/tool_card.py" line="82"/>
        <source>%n B</source>
        <translation>%n B</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/tool_card.py" line="84"/>
        <source>%n KiB</source>
        <translation>%n KiB</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/tool_card.py" line="87"/>
        <source>%n MiB</source>
        <translation>%n MiB</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/tool_card.py" line="151"/>
        <source>%n ms</source>
        <translation>%n 毫秒</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/tool_card.py" line="153"/>
        <source>%n s</source>
        <translation>%n 秒</translation>
    </message>
</context>
<context>
    <name>ToolCardWidget</name>
    <message>
        <location filename="../../desktop/ui/views/tool_cards.py" line="73"/>
        <source>Arguments</source>
        <translation>参数</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/tool_cards.py" line="76"/>
        <source>Result</source>
        <translation>结果</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/tool_cards.py" line="116"/>
        <source>Tool call %1: %2</source>
        <translation>工具调用 %1：%2</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/tool_cards.py" line="129"/>
        <source>Full output: %1 — &lt;a href=&apos;open&apos;&gt;Open&lt;/a&gt;</source>
        <translation>完整输出：%1 — &lt;a href=&apos;open&apos;&gt;打开&lt;/a&gt;</translation>
    </message>
</context>
<context>
    <name>ToolChecklist</name>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/tool_checklist.py" line="27"/>
        <source>All tools</source>
        <translation>所有工具</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/tool_checklist.py" line="28"/>
        <source>Every tool, including ones added later</source>
        <translation>所有工具，包括以后添加的工具</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/tool_checklist.py" line="32"/>
        <source>Tools</source>
        <translation>工具</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/tool_checklist.py" line="33"/>
        <source>Every tool, including ones added later.</source>
        <translation>所有工具，包括以后添加的工具。</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/tool_checklist.py" line="34"/>
        <source>No tools are available.</source>
        <translation>没有可用的工具。</translation>
    </message>
</context>
<context>
    <name>ToolsPage</name>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/tools_page.py" line="30"/>
        <source>Auto runs a tool when the model asks; Ask shows you the call first; Off never offers it. Tools that change files or run commands ask by default.</source>
        <translation>“自动”会在模型请求时直接运行工具；“询问”会先向你展示调用；“关闭”则从不提供该工具。会修改文件或运行命令的工具默认需要询问。</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/tools_page.py" line="40"/>
        <source>Always allowed</source>
        <translation>始终允许</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/tools_page.py" line="70"/>
        <source>Auto</source>
        <translation>自动</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/tools_page.py" line="71"/>
        <source>Ask</source>
        <translation>询问</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/tools_page.py" line="72"/>
        <source>Off</source>
        <translation>关闭</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/tools_page.py" line="93"/>
        <source>Reads only</source>
        <translation>只读</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/tools_page.py" line="94"/>
        <source>Changes files</source>
        <translation>修改文件</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/tools_page.py" line="95"/>
        <source>Runs commands</source>
        <translation>运行命令</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/tools_page.py" line="110"/>
        <source>No tool is always allowed.</source>
        <translation>没有始终允许的工具。</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/tools_page.py" line="117"/>
        <source>Remove</source>
        <translation>移除</translation>
    </message>
</context>
<context>
    <name>Transcript</name>
    <message>
        <location filename="../../desktop/ui/views/transcript.py" line="38"/>
        <source>Jump to latest</source>
        <translation>跳到最新</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/transcript.py" line="42"/>
        <source>Scroll to the newest message (End)</source>
        <translation>滚动到最新消息（End）</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/transcript.py" line="69"/>
        <source>Delete message?</source>
        <translation>删除消息？</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/transcript.py" line="70"/>
        <source>Delete this message and everything after it in this branch of the chat?</source>
        <translation>删除此消息以及此对话分支中它之后的所有内容？</translation>
    </message>
</context>
<context>
    <name>TransferViewModel</name>
    <message>
        <location filename="../../desktop/ui/viewmodels/transfer.py" line="37"/>
        <source>%1 is %2 MiB; imports stop at 200 MiB.</source>
        <translation>%1 大小为 %2 MiB；导入上限为 200 MiB。</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/transfer.py" line="75"/>
        <source>Could not export to %1: %2</source>
        <translation>无法导出到 %1：%2</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/transfer.py" line="91"/>
        <source>%1 is not a text file.</source>
        <translation>%1 不是文本文件。</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/transfer.py" line="94"/>
        <source>Could not import %1: %2</source>
        <translation>无法导入 %1：%2</translation>
    </message>
</context>
<context>
    <name>Tray</name>
    <message>
        <location filename="../../desktop/ui/desktop/tray.py" line="32"/>
        <source>New Chat</source>
        <translation>新建对话</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/desktop/tray.py" line="33"/>
        <source>Show Parley</source>
        <translation>显示 Parley</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/desktop/tray.py" line="34"/>
        <source>Floating Chat</source>
        <translation>悬浮窗</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/desktop/tray.py" line="37"/>
        <source>Quit Parley</source>
        <translation>退出 Parley</translation>
    </message>
</context>
<context>
    <name>UpgradeNotice</name>
    <message>
        <location filename="../../desktop/ui/views/upgrade_notice.py" line="21"/>
        <source>Updating your chats for this version of Parley…</source>
        <translation>正在为此版本的 Parley 更新你的对话…</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/upgrade_notice.py" line="23"/>
        <source>This happens once and can take a few seconds.</source>
        <translation>此过程只进行一次，可能需要几秒钟。</translation>
    </message>
</context>
<context>
    <name>UsageModel</name>
    <message>
        <location filename="../../desktop/ui/viewmodels/usage.py" line="42"/>
        <source>%1 tokens</source>
        <translation>%1 Token</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/usage.py" line="50"/>
        <source>Input: %1 tokens</source>
        <translation>输入：%1 Token</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/usage.py" line="53"/>
        <source>Output: %1 tokens</source>
        <translation>输出：%1 Token</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/usage.py" line="59"/>
        <source>of which reasoning: %1</source>
        <translation>其中思考：%1</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/usage.py" line="65"/>
        <source>Cost: %1</source>
        <translation>费用：%1</translation>
    </message>
</context>
<context>
    <name>UsagePage</name>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/usage_page.py" line="39"/>
        <source>Titles for new chats and follow-up suggestions are written in the background by the utility model. A small, fast model keeps them cheap.</source>
        <translation>新对话的标题和追问建议由辅助模型在后台生成。选用小而快的模型可以降低成本。</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/usage_page.py" line="55"/>
        <source>Name new chats from their first answer</source>
        <translation>根据第一条回答为新对话命名</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/usage_page.py" line="57"/>
        <source>Suggest follow-up questions</source>
        <translation>推荐追问问题</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/usage_page.py" line="60"/>
        <source>Utility model</source>
        <translation>辅助模型</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/usage_page.py" line="66"/>
        <source>Currency</source>
        <translation>货币</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/usage_page.py" line="71"/>
        <source>Prices per million tokens. Leave a row empty for no cost; reasoning tokens cost the output price unless you give them their own.</source>
        <translation>每百万 Token 的价格。留空表示不计费；除非单独设置，思考 Token 按输出价格计费。</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/usage_page.py" line="82"/>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/usage_page.py" line="83"/>
        <source>Input / 1M</source>
        <translation>输入 / 1M</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/usage_page.py" line="84"/>
        <source>Output / 1M</source>
        <translation>输出 / 1M</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/usage_page.py" line="85"/>
        <source>Reasoning / 1M</source>
        <translation>思考 / 1M</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/usage_page.py" line="94"/>
        <source>No models yet: add a provider, and its models are listed here to price.</source>
        <translation>暂无模型：添加服务商后，其模型会列在这里，供你设置价格。</translation>
    </message>
</context>
<context>
    <name>UsageSettingsModel</name>
    <message>
        <location filename="../../desktop/ui/viewmodels/usage_settings.py" line="73"/>
        <source>The conversation&apos;s own model</source>
        <translation>对话自身的模型</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/usage_settings.py" line="81"/>
        <source>%1 (not configured)</source>
        <translation>%1（未配置）</translation>
    </message>
</context>
<context>
    <name>WebSearchPage</name>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/web_search_page.py" line="46"/>
        <source>Models that can call tools may search the web with the engine chosen here, and cite what they find. What they search for is sent to that engine.</source>
        <translation>支持工具调用的模型可以通过这里选择的搜索引擎进行网络搜索，并引用搜索到的内容。模型的搜索词会发送给该搜索引擎。</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/web_search_page.py" line="57"/>
        <source>Off — models do not search the web</source>
        <translation>关闭 — 模型不进行网络搜索</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/web_search_page.py" line="58"/>
        <source>SearXNG (your own instance)</source>
        <translation>SearXNG（自建实例）</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/web_search_page.py" line="59"/>
        <source>Brave Search (API key)</source>
        <translation>Brave Search（需要 API 密钥）</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/web_search_page.py" line="60"/>
        <source>Tavily (API key)</source>
        <translation>Tavily（需要 API 密钥）</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/web_search_page.py" line="61"/>
        <source>DuckDuckGo (no key, may be rate-limited)</source>
        <translation>DuckDuckGo（无需密钥，可能受频率限制）</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/web_search_page.py" line="73"/>
        <source>Only if the instance asks for one</source>
        <translation>仅在实例要求时填写</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/web_search_page.py" line="79"/>
        <source>A password is saved</source>
        <translation>已保存密码</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/web_search_page.py" line="80"/>
        <location filename="../../desktop/ui/views/settings_pages/web_search_page.py" line="81"/>
        <source>A key is saved</source>
        <translation>已保存密钥</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/web_search_page.py" line="99"/>
        <source>Models may open web pages (asks you each time)</source>
        <translation>允许模型打开网页（每次都会先询问你）</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/web_search_page.py" line="102"/>
        <source>Test search</source>
        <translation>测试搜索</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/web_search_page.py" line="123"/>
        <source>Engine</source>
        <translation>搜索引擎</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/web_search_page.py" line="126"/>
        <source>SearXNG address</source>
        <translation>SearXNG 地址</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/web_search_page.py" line="127"/>
        <source>User name</source>
        <translation>用户名</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/web_search_page.py" line="128"/>
        <source>Password</source>
        <translation>密码</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/web_search_page.py" line="129"/>
        <location filename="../../desktop/ui/views/settings_pages/web_search_page.py" line="130"/>
        <source>API key</source>
        <translation>API 密钥</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/web_search_page.py" line="131"/>
        <source>Results per search</source>
        <translation>每次搜索结果数</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/web_search_page.py" line="200"/>
        <source>Searching…</source>
        <translation>正在搜索…</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/web_search_page.py" line="267"/>
        <source>Models are not offered web search or web pages.</source>
        <translation>不向模型提供网络搜索和网页读取功能。</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/web_search_page.py" line="269"/>
        <source>A SearXNG instance you run, or one you may use: its settings.yml must list json in search.formats. Public instances allow only a few searches a minute.</source>
        <translation>你自己部署或有权使用的 SearXNG 实例：其 settings.yml 的 search.formats 中必须包含 json。公共实例每分钟只允许少量搜索。</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/web_search_page.py" line="273"/>
        <source>Needs an API key for the Brave Search API (api-dashboard.search.brave.com).</source>
        <translation>需要 Brave Search API 的 API 密钥（api-dashboard.search.brave.com）。</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/web_search_page.py" line="275"/>
        <source>Needs a Tavily API key (app.tavily.com).</source>
        <translation>需要 Tavily API 密钥（app.tavily.com）。</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/web_search_page.py" line="277"/>
        <source>No key needed, but DuckDuckGo limits scripted searches and may stop answering for a while: your own SearXNG instance is more dependable.</source>
        <translation>无需密钥，但 DuckDuckGo 会限制自动化搜索，可能会暂时停止响应：使用自建的 SearXNG 实例更可靠。</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/web_search_page.py" line="285"/>
        <source>Remove the saved password from the keyring?</source>
        <translation>要从密钥环中移除已保存的密码吗？</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/web_search_page.py" line="287"/>
        <source>Remove the saved key from the keyring?</source>
        <translation>要从密钥环中移除已保存的密钥吗？</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/settings_pages/web_search_page.py" line="290"/>
        <source>Remove</source>
        <translation>移除</translation>
    </message>
</context>
<context>
    <name>WebSearchSettingsModel</name>
    <message>
        <location filename="../../desktop/ui/viewmodels/web_search_settings.py" line="152"/>
        <source>Removed from the keyring</source>
        <translation>已从密钥环中移除</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/web_search_settings.py" line="165"/>
        <source>SearXNG password saved in the keyring</source>
        <translation>SearXNG 密码已保存到密钥环</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/web_search_settings.py" line="167"/>
        <source>API key saved in the keyring</source>
        <translation>API 密钥已保存到密钥环</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/web_search_settings.py" line="218"/>
        <source>Choose an engine to test.</source>
        <translation>请选择要测试的搜索引擎。</translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/ui/viewmodels/web_search_settings.py" line="244"/>
        <source>Found %n result(s): %1</source>
        <translation>
            <numerusform>找到 %n 条结果：%1</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/web_search_settings.py" line="247"/>
        <source>The engine answered, but found nothing.</source>
        <translation>搜索引擎已响应，但没有找到任何结果。</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/web_search_settings.py" line="275"/>
        <source>Engine</source>
        <translation>搜索引擎</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/web_search_settings.py" line="276"/>
        <source>SearXNG address</source>
        <translation>SearXNG 地址</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/web_search_settings.py" line="277"/>
        <source>User name</source>
        <translation>用户名</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/web_search_settings.py" line="278"/>
        <source>Results per search</source>
        <translation>每次搜索结果数</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/viewmodels/web_search_settings.py" line="281"/>
        <source>%1: %2.</source>
        <translation>%1：%2。</translation>
    </message>
</context>
<context>
    <name>WorkspaceButton</name>
    <message>
        <location filename="../../desktop/ui/views/workspace_button.py" line="21"/>
        <location filename="../../desktop/ui/views/workspace_button.py" line="79"/>
        <source>Workspace: %1</source>
        <translation>工作区：%1</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/workspace_button.py" line="30"/>
        <source>Choose folder…</source>
        <translation>选择文件夹…</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/workspace_button.py" line="31"/>
        <source>No workspace</source>
        <translation>不使用工作区</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/workspace_button.py" line="34"/>
        <source>Send a file with each message…</source>
        <translation>每条消息附带发送一个文件…</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/workspace_button.py" line="37"/>
        <source>Stop sending the file</source>
        <translation>停止附带发送文件</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/workspace_button.py" line="51"/>
        <source>Workspace folder</source>
        <translation>工作区文件夹</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/workspace_button.py" line="66"/>
        <source>File to send with each message</source>
        <translation>每条消息附带发送的文件</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/workspace_button.py" line="79"/>
        <source>Workspace: none</source>
        <translation>工作区：无</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/workspace_button.py" line="87"/>
        <source>Pick a folder the model&apos;s file and command tools may use</source>
        <translation>选择模型的文件和命令工具可以使用的文件夹</translation>
    </message>
    <message>
        <location filename="../../desktop/ui/views/workspace_button.py" line="90"/>
        <source>%1 is read and sent with each message</source>
        <translation>%1 会被读取并随每条消息发送</translation>
    </message>
</context>
</TS>
