"""A LangGraph agent (``langgraph`` + ``langchain-openai``) as an OpsBench assistant.

    opsbench run -m python:examples.langgraph_agent:make -M model=gpt-4.1

A two-node graph, model and tools, looping until the model answers without a tool call. Each
business tool is a LangChain ``StructuredTool`` (with OpsBench's JSON Schema) whose coroutine
hands the call to the OpsBench episode (``turn.call``), so it acts on the episode's world and
is scored like any other. The graph's messages are kept between caller turns.
"""

from __future__ import annotations

import os
from typing import Any

import openai
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage
from langchain_core.tools import StructuredTool
from langchain_openai import ChatOpenAI
from langgraph.graph import END, START, MessagesState, StateGraph
from langgraph.prebuilt import ToolNode, tools_condition

from contract.assistant import EpisodeContext
from contract.messages import Usage
from examples._openai_client import as_provider_errors
from opsbench.integrations.bridge import AgentTurn, BridgeAssistant


def _tool(turn: AgentTurn, name: str, description: str, schema: dict[str, Any]) -> StructuredTool:
    async def invoke(**arguments: Any) -> str:
        return (await turn.call(name, arguments)).content

    return StructuredTool(name=name, description=description, args_schema=schema, coroutine=invoke)


def _text(message: AIMessage) -> str:
    content = message.content
    if isinstance(content, str):
        return content
    return "".join(part.get("text", "") for part in content if isinstance(part, dict))


class LangGraphAgent:
    """Model node + ``ToolNode``, compiled per caller turn over the same tools."""

    def __init__(self, model: str, base_url: str | None, recursion_limit: int) -> None:
        key = os.environ.get("OPENAI_API_KEY") or ("local" if base_url else None)
        # Its own HTTP client, closed with the session: LangChain's default one is shared by
        # the whole process and outlives the event loop an episode runs in.
        self.http = openai.DefaultAsyncHttpxClient()
        self.llm = ChatOpenAI(
            model=model, base_url=base_url, api_key=key, max_retries=2, http_async_client=self.http
        )
        self.recursion_limit = recursion_limit
        self.messages: list[BaseMessage] = []

    def _graph(self, turn: AgentTurn) -> Any:
        tools = [_tool(turn, s.name, s.description, s.parameters) for s in turn.tools]
        model = self.llm.bind_tools(tools)
        system = SystemMessage(turn.instructions)

        async def call_model(state: MessagesState) -> dict[str, list[BaseMessage]]:
            reply = await model.ainvoke([system, *state["messages"]])
            if reply.usage_metadata:
                usage = reply.usage_metadata
                turn.add_usage(Usage(usage["input_tokens"], usage["output_tokens"], requests=1))
            if reply.tool_calls:
                turn.say(_text(reply))
            return {"messages": [reply]}

        graph = StateGraph(MessagesState)
        graph.add_node("model", call_model)
        graph.add_node("tools", ToolNode(tools))
        graph.add_edge(START, "model")
        graph.add_conditional_edges("model", tools_condition, {"tools": "tools", END: END})
        graph.add_edge("tools", "model")
        return graph.compile()

    async def run(self, turn: AgentTurn) -> str:
        messages = [*self.messages, *(HumanMessage(line) for line in turn.caller)]
        state = await as_provider_errors(
            lambda: self._graph(turn).ainvoke(
                {"messages": messages}, {"recursion_limit": self.recursion_limit}
            )
        )
        self.messages = state["messages"]
        last = self.messages[-1]
        return _text(last) if isinstance(last, AIMessage) else ""

    async def aclose(self) -> None:
        await self.http.aclose()


def make(
    context: EpisodeContext,
    model: str = "gpt-4.1",
    base_url: str | None = None,
    recursion_limit: int = 25,
) -> BridgeAssistant:
    """``python:examples.langgraph_agent:make`` (options: ``model``, ``recursion_limit``)."""
    return BridgeAssistant(LangGraphAgent(model, base_url, int(recursion_limit)))
