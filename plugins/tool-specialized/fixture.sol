// SPDX-License-Identifier: MIT
pragma solidity ^0.8.0;

// BAD and GOOD DeFi / upgradeability code side by side; an expect comment lists the rules that must flag its line.
interface IPair {
    function getReserves() external view returns (uint112, uint112, uint32);
}
interface IERC20 {
    function balanceOf(address) external view returns (uint256);
    function transferFrom(address, address, uint256) external returns (bool);
}
interface ITwap {
    function consult(address token, uint256 amountIn) external view returns (uint256);
}

contract SpotLender {
    IPair public pair;
    IERC20 public token0;
    IERC20 public token1;
    mapping(address => uint256) public debt;

    function price() public view returns (uint256) {
        (uint112 r0, uint112 r1, ) = pair.getReserves(); // expect: spot-price-oracle
        return uint256(r1) * 1e18 / r0;
    }

    function priceFromBalances() public view returns (uint256) {
        return token1.balanceOf(address(pair)) * 1e18 / token0.balanceOf(address(pair)); // expect: spot-price-oracle
    }
}

contract TwapLender {
    ITwap public oracle;
    IPair public pair;
    function price(address t) public view returns (uint256) {
        (uint112 r0, , ) = pair.getReserves();
        return oracle.consult(t, 1e18) + r0 * 0;
    }
}

contract Vault {
    IERC20 public asset;
    uint256 public totalShares;
    mapping(address => uint256) public shares;

    function deposit(uint256 amount) external {
        uint256 minted = totalShares == 0 ? amount : amount * totalShares / asset.balanceOf(address(this)); // expect: flash-loan-share-price
        asset.transferFrom(msg.sender, address(this), amount);
        shares[msg.sender] += minted;
        totalShares += minted;
    }
}

contract GoodVault {
    IERC20 public asset;
    uint256 public totalShares;
    uint256 public totalAssets;
    mapping(address => uint256) public shares;

    function deposit(uint256 amount) external {
        uint256 minted = totalShares == 0 ? amount : amount * totalShares / totalAssets;
        asset.transferFrom(msg.sender, address(this), amount);
        totalAssets += amount;
        shares[msg.sender] += minted;
        totalShares += minted;
    }
}

contract Proxy {
    address public implementation; // expect: proxy-storage-collision
    address public admin;

    function upgrade(address next) external { // expect: missing-event
        require(msg.sender == admin);
        implementation = next;
    }

    fallback() external payable {
        (bool ok, ) = implementation.delegatecall(msg.data);
        require(ok);
    }
}

contract Logic {
    uint256 public counter; // writes slot 0: the proxy's implementation
    address public owner;
    address[] public members;
    uint256 constant MAX = 50;

    function initialize(address o) external { // expect: unprotected-initializer
        owner = o;
    }

    function bump() external {
        counter += 1;
    }

    function sweep() external {
        require(msg.sender == owner);
        payable(owner).transfer(address(this).balance);
    }

    function join() external {
        members.push(msg.sender);
    }

    function payAll() external {
        for (uint256 i = 0; i < members.length; i++) { // expect: unbounded-loop
            payable(members[i]).transfer(1);
        }
    }

    function payPage() external {
        for (uint256 i = 0; i < members.length && i < MAX; i++) {
            payable(members[i]).transfer(1);
        }
    }
}

contract GoodLogic {
    address public implementation;
    address public admin;
    address public owner;
    bool private initialized;
    event OwnerChanged(address);

    function initialize(address o) external {
        require(!initialized);
        initialized = true;
        owner = o;
    }

    function setOwner(address o) external {
        require(msg.sender == owner);
        owner = o;
        emit OwnerChanged(o);
    }
}

contract Lifecycle {
    bool public started;
    uint256 public total;

    // Flips a lifecycle flag to a fixed value: the caller chooses nothing and takes over nothing.
    function init() public {
        started = true;
    }

    function add(uint256 x) external {
        require(started);
        total += x;
    }
}
