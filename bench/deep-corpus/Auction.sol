// SPDX-License-Identifier: MIT
pragma solidity ^0.8.0;

// An auction house: sellers list items for an English auction (bids with a minimum increment,
// anti-sniping extension, pull refunds) or a Dutch auction (linearly falling price); the house
// takes a commission; escrowed proceeds are withdrawn by sellers. Robustness corpus for vigil's
// deep layers.

contract AuctionHouse {
    enum Kind {
        English,
        Dutch
    }

    struct Auction {
        address seller;
        Kind kind;
        uint64 start;
        uint64 end;
        uint128 reserve;
        uint128 startPrice;
        address highestBidder;
        uint256 highestBid;
        bool settled;
        bool cancelled;
        string item;
    }

    address public owner;
    uint256 public commissionBps = 250;
    uint256 public minIncrementBps = 500;
    uint256 public extension = 10 minutes;
    uint256 public auctionCount;
    uint256 public houseBalance;

    mapping(uint256 => Auction) public auctions;
    mapping(address => uint256) public pendingReturns;
    mapping(address => uint256) public proceeds;
    mapping(address => bool) public bannedSellers;

    event Listed(uint256 indexed id, address indexed seller, Kind kind, string item);
    event Bid(uint256 indexed id, address indexed bidder, uint256 amount, uint64 end);
    event Settled(uint256 indexed id, address winner, uint256 price);
    event Cancelled(uint256 indexed id);
    event Withdrawal(address indexed who, uint256 amount);

    modifier onlyOwner() {
        require(msg.sender == owner, "owner");
        _;
    }

    constructor() {
        owner = msg.sender;
    }

    // ----- listing -----

    function listEnglish(string calldata item, uint128 reserve, uint64 duration) external returns (uint256 id) {
        require(!bannedSellers[msg.sender], "banned");
        require(duration >= 1 hours && duration <= 30 days, "duration");
        id = ++auctionCount;
        Auction storage a = auctions[id];
        a.seller = msg.sender;
        a.kind = Kind.English;
        a.start = uint64(block.timestamp);
        a.end = uint64(block.timestamp) + duration;
        a.reserve = reserve;
        a.item = item;
        emit Listed(id, msg.sender, Kind.English, item);
    }

    function listDutch(string calldata item, uint128 startPrice, uint128 floor, uint64 duration) external returns (uint256 id) {
        require(!bannedSellers[msg.sender], "banned");
        require(startPrice > floor, "prices");
        require(duration >= 10 minutes && duration <= 7 days, "duration");
        id = ++auctionCount;
        Auction storage a = auctions[id];
        a.seller = msg.sender;
        a.kind = Kind.Dutch;
        a.start = uint64(block.timestamp);
        a.end = uint64(block.timestamp) + duration;
        a.reserve = floor;
        a.startPrice = startPrice;
        a.item = item;
        emit Listed(id, msg.sender, Kind.Dutch, item);
    }

    function cancel(uint256 id) external {
        Auction storage a = auctions[id];
        require(msg.sender == a.seller || msg.sender == owner, "not allowed");
        require(!a.settled && !a.cancelled, "closed");
        require(a.highestBidder == address(0), "has bids");
        a.cancelled = true;
        emit Cancelled(id);
    }

    // ----- English -----

    function bid(uint256 id) external payable {
        Auction storage a = auctions[id];
        require(a.kind == Kind.English && a.seller != address(0), "not english");
        require(!a.cancelled && !a.settled, "closed");
        require(block.timestamp < a.end, "ended");
        require(msg.sender != a.seller, "seller");
        uint256 minBid = a.highestBid == 0 ? a.reserve : a.highestBid + (a.highestBid * minIncrementBps) / 10_000;
        require(msg.value >= minBid && msg.value > 0, "bid too low");
        if (a.highestBidder != address(0)) pendingReturns[a.highestBidder] += a.highestBid;
        a.highestBidder = msg.sender;
        a.highestBid = msg.value;
        if (a.end - block.timestamp < extension) a.end = uint64(block.timestamp + extension);
        emit Bid(id, msg.sender, msg.value, a.end);
    }

    function settle(uint256 id) external {
        Auction storage a = auctions[id];
        require(a.kind == Kind.English, "not english");
        require(block.timestamp >= a.end, "running");
        require(!a.settled && !a.cancelled, "closed");
        a.settled = true;
        if (a.highestBidder != address(0)) {
            _pay(a.seller, a.highestBid);
        }
        emit Settled(id, a.highestBidder, a.highestBid);
    }

    // ----- Dutch -----

    function currentPrice(uint256 id) public view returns (uint256) {
        Auction storage a = auctions[id];
        require(a.kind == Kind.Dutch, "not dutch");
        if (block.timestamp >= a.end) return a.reserve;
        uint256 elapsed = block.timestamp - a.start;
        uint256 span = a.end - a.start;
        return a.startPrice - ((uint256(a.startPrice) - a.reserve) * elapsed) / span;
    }

    function buy(uint256 id) external payable {
        Auction storage a = auctions[id];
        require(a.kind == Kind.Dutch && a.seller != address(0), "not dutch");
        require(!a.settled && !a.cancelled, "closed");
        uint256 price = currentPrice(id);
        require(msg.value >= price, "price");
        a.settled = true;
        a.highestBidder = msg.sender;
        a.highestBid = price;
        _pay(a.seller, price);
        if (msg.value > price) pendingReturns[msg.sender] += msg.value - price;
        emit Settled(id, msg.sender, price);
    }

    // ----- money -----

    function _pay(address seller, uint256 amount) internal {
        uint256 fee = (amount * commissionBps) / 10_000;
        houseBalance += fee;
        proceeds[seller] += amount - fee;
    }

    function withdraw() external {
        uint256 amount = pendingReturns[msg.sender] + proceeds[msg.sender];
        require(amount > 0, "nothing");
        pendingReturns[msg.sender] = 0;
        proceeds[msg.sender] = 0;
        (bool ok, ) = payable(msg.sender).call{value: amount}("");
        require(ok, "send failed");
        emit Withdrawal(msg.sender, amount);
    }

    function withdrawHouse(address payable to) external onlyOwner {
        uint256 amount = houseBalance;
        houseBalance = 0;
        (bool ok, ) = to.call{value: amount}("");
        require(ok, "send failed");
    }

    function setCommission(uint256 bps) external onlyOwner {
        require(bps <= 1000, "too high");
        commissionBps = bps;
    }

    function setBanned(address seller, bool banned) external onlyOwner {
        bannedSellers[seller] = banned;
    }

    // ----- views -----

    function isOpen(uint256 id) external view returns (bool) {
        Auction storage a = auctions[id];
        return a.seller != address(0) && !a.settled && !a.cancelled && block.timestamp < a.end;
    }

    function openAuctions(uint256 from, uint256 to) external view returns (uint256[] memory ids) {
        require(from <= to && to <= auctionCount, "range");
        uint256[] memory tmp = new uint256[](to - from + 1);
        uint256 n;
        for (uint256 id = from; id <= to; id++) {
            Auction storage a = auctions[id];
            if (a.seller != address(0) && !a.settled && !a.cancelled && block.timestamp < a.end) tmp[n++] = id;
        }
        ids = new uint256[](n);
        for (uint256 i = 0; i < n; i++) ids[i] = tmp[i];
    }

    function setOwner(address o) external onlyOwner {
        require(o != address(0), "zero");
        owner = o;
    }
}
