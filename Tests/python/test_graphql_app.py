"""A GraphQL app the daemon does not host, talking to its session's endpoint with a real GraphQL client (gql):
queries answered with exactly their selection from the scenario's schema and data, a mutation that changes the
session's data, a query that does not validate refused as a server would, and a subscription over WebSocket whose
events wait for the session's clock."""
import asyncio

import pytest
from gql import Client, gql
from gql.transport.exceptions import TransportQueryError
from gql.transport.httpx import HTTPXTransport
from gql.transport.websockets import WebsocketsTransport


def request(document, **variables):
    """A GraphQL request with its variables, as gql 4 takes them."""
    query = gql(document)
    query.variable_values = variables
    return query


def client(session):
    transport = HTTPXTransport(url=f"{session.endpoint.url}/graphql", headers=session.endpoint.headers)
    return Client(transport=transport)


def test_queries_and_a_mutation_get_exactly_what_they_select(scenario):
    session = scenario("trips-happy", endpoint=True)
    with client(session) as planner:
        found = planner.execute(request("""
            query Search($from: ID!, $to: ID!) {
              trips(from: $from, to: $to) { id departs ride: vehicle { __typename name ... on Bus { line } } }
            }""", **{"from": "oslo-s", "to": "drammen"}))
        assert found == {"trips": [
            {"id": "t-0912", "departs": "09:12", "ride": {"__typename": "Bus", "name": "Line 100 to Drammen", "line": 100}},
            {"id": "t-0925", "departs": "09:25", "ride": {"__typename": "Train", "name": "R11 to Skien"}},
        ]}
        saved = planner.execute(request("mutation Save($input: SaveInput!) { saveTrip(input: $input) { id note trip { to { name } } } }",
                                        input={"trip": "t-0925", "note": "Friday"}))
        assert saved == {"saveTrip": {"id": "savedtrip-1", "note": "Friday", "trip": {"to": {"name": "Drammen"}}}}
        assert planner.execute(gql("{ saved { id } }")) == {"saved": [{"id": "saved-1"}, {"id": "savedtrip-1"}]}

        with pytest.raises(TransportQueryError) as refused:
            planner.execute(gql("{ trips(from: \"oslo-s\", to: \"bergen\") { id depart } }"))
        assert 'Cannot query field "depart" on type "Trip". Did you mean "departs"?' in str(refused.value)

    # The session journaled every request from outside; the refused one says why.
    outside = [entry for entry in session.journal() if entry.get("outside")]
    assert [entry["status"] for entry in outside] == [200, 200, 200, 400]
    assert outside[-1]["nearMisses"][0]["field"] == "/body/query"
    # Another session starts from the scenario's data.
    other = scenario("trips-happy", endpoint=True)
    with client(other) as planner:
        assert planner.execute(gql("{ saved { id } }")) == {"saved": [{"id": "saved-1"}]}


def test_a_subscription_hears_each_position_when_the_sessions_clock_reaches_it(scenario):
    session = scenario("trips-happy", endpoint=True)
    url = session.endpoint.url.replace("http://", "ws://") + "/graphql"

    async def follow():
        transport = WebsocketsTransport(url=url, headers=session.endpoint.headers,
                                        subprotocols=[WebsocketsTransport.GRAPHQLWS_SUBPROTOCOL])
        heard = []
        async with Client(transport=transport) as live:
            positions = live.subscribe(request("""
                subscription Positions($vehicle: ID!) {
                  vehiclePositions(vehicle: $vehicle) { lat delayMinutes vehicle { name } }
                }""", vehicle="bus-100"))
            listening = asyncio.ensure_future(anext(positions))
            # The subscribe is a step of the session once the endpoint has taken it: then the clock may move.
            await asyncio.to_thread(session.wait_for_step, 2)
            await asyncio.sleep(0)
            assert not listening.done(), "the first position is due at +30s"
            await asyncio.to_thread(session.advance, "30s")
            heard.append(await asyncio.wait_for(listening, 30))
            await asyncio.to_thread(session.advance, "90s")
            async for position in positions:
                heard.append(position)
        return heard

    heard = asyncio.run(follow())
    assert [position["vehiclePositions"]["lat"] for position in heard] == [59.9111, 59.8327, 59.7441]
    assert heard[-1]["vehiclePositions"] == {"lat": 59.7441, "delayMinutes": 2, "vehicle": {"name": "Line 100 to Drammen"}}
